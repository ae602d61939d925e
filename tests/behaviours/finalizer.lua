-- tests/behaviours/finalizer.lua — test-only: makes a table whose finalizer would loop forever when collected.
return {
  steer = function()
    setmetatable({}, { __gc = function()
      while true do
      end
    end })
    return 0, 0
  end,
}

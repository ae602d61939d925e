-- tests/behaviours/catches_stop.lua — test-only: loops forever, catching every error (the watchdog's stop included) with pcall.
return {
  steer = function()
    while true do
      pcall(function()
        while true do
        end
      end)
    end
  end,
}

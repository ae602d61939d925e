-- tests/behaviours/remove_flood.lua — test-only: asks for the removal of every id there could be, in one step.
return {
  steer = function(a)
    for id = 1, 1e9 do
      a:remove(id)
    end
    return 0, 0
  end,
}

-- tests/behaviours/fails_for_console.lua — fails on purpose for one agent from a given step, with locals to look at (tests/cli_console.sh).
return {
  params = {
    victim = { 7, help = "the id of the agent it fails for" },
    after = { 3, help = "the step from which it fails" },
  },
  steer = function(a, p)
    local step = fb.time()
    local offset = { x = a.x - 50, y = a.y - 50 }
    if a.id == p.victim and step >= p.after then
      local reason = "agent " .. a.id .. " is " .. math.floor(offset.x) .. " east of the centre"
      error(reason)
    end
    return 0, 0
  end,
}

-- tests/behaviours/fails_at_one_agent.lua — pushes every agent east, but raises an error for the agent with id 7.
return {
  params = {},
  steer = function(a, p, s)
    if a.id == 7 then
      error("agent 7 is not welcome")
    end
    return 5, 0
  end,
}

-- tests/behaviours/view_leader.lua — test-only: marks every seventh agent as a leader so the viewer
-- tests can look for the leader colour; steers nowhere.
return {
  params = { every = 7 },
  fields = { leader = 0 },
  steer = function(a, p)
    a:set("leader", a.id % p.every == 0 and 1 or 0)
    return 0, 0
  end,
}

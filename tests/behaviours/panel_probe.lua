-- tests/behaviours/panel_probe.lua — a rule for the panel's tests: a declared range, an integer parameter, a switch, a species name, and a validate that refuses values.
local species = { boid = true, hawk = true } -- those of tests/data/panel_test.lua

return {
  params = {
    gain = { 0.5, min = 0, max = 4, help = "a declared range: the slider spans 0 .. 4" },
    count = { 3, min = 0, help = "an integer: it must stay one (validate checks)" },
    limit = { 1, help = "positive, and below the species' max_speed (validate checks)" },
    mark = { false, help = "a switch: each agent's field `marked` is 1 while it is on" },
    target = { "hawk", help = "a species of the scenario (validate checks)" },
  },

  fields = { marked = 0 },

  validate = function(p, s)
    if not (p.limit > 0) then
      return "limit", "must be positive"
    end
    if not (p.limit < s.max_speed) then
      return "limit", string.format("must be below max_speed = %g", s.max_speed)
    end
    if math.type(p.count) ~= "integer" then
      return "count", "must be a whole number"
    end
    if p.target == "fail" then -- test_live: a validate that fails, not one that refuses
      error("validate breaks on purpose")
    end
    if p.target == "worded_as_failure" then -- test_live: a refusal whose words read as a failure's
      return "validate failed", "but this is a refusal"
    end
    if not species[p.target] then
      return "target", string.format("no species '%s' in this scenario", p.target)
    end
  end,

  steer = function(a, p)
    a:set("marked", p.mark and 1 or 0)
    return 0, 0
  end,
}

-- tests/data/path_hooks.lua — a path driven from a hook: fb.set_path_speed at steps 100 (4 units/s)
-- and 200 (nil: back to the table), and what fb.path returns written into `seen` for test_paths;
-- the rule reads_path copies what rules see of it into per-agent fields.
-- luacheck: globals seen (a global of the scenario's environment, which test_paths reads)
seen = {}

return {
  world = { width = 200, height = 100, dt = 0.05 },
  paths = {
    { name = "route", points = { { 10, 50 }, { 60, 20 }, { 120, 70 }, { 190, 50 } }, speed = { { 0, 2 }, { 20, 6 } } },
  },
  behaviours = { "tests/behaviours" },
  species = { { name = "boid", count = 3, rules = { { "reads_path", params = { path = "route" } } } } },
  on_step = function(step)
    if step == 100 then
      fb.set_path_speed("route", 4)
    elseif step == 200 then
      fb.set_path_speed("route", nil)
    end
    seen.x, seen.y, seen.tx, seen.ty, seen.speed = fb.path("route")
    seen.missing = fb.path("nowhere") == nil
    seen.unknown_ok, seen.unknown = pcall(fb.set_path_speed, "nowhere", 1)
    seen.negative_ok, seen.negative = pcall(fb.set_path_speed, "route", -1)
  end,
}

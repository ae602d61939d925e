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

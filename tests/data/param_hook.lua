-- tests/data/param_hook.lua — a herd whose on_step changes rule parameters (fb.set_param) at step 100: a state saved later must carry them (test_state).
-- comfort and danger are set danger first (danger < comfort holds at each call); a state restores
-- them in name order, comfort first, which validate refuses until danger is set: the retry path.
return {
  world = { width = 120, height = 120, dt = 0.05, bounds = "clamp" },
  species = {
    {
      name = "herd", count = 80, spawn = { area = { 20, 20, 100, 100 }, speed = { 1, 3 } },
      max_speed = 8, vision = { radius = 12, fov = 270, separation = 6 },
      rules = {
        { "separation_gompert", params = { comfort = 8, danger = 4 } },
        { "alignment_gompert" },
        { "cohesion_gompert", params = { distance = 20 } },
      },
    },
  },
  on_step = function(step)
    if step == 100 then
      fb.set_param("herd", "separation_gompert", "danger", 1.5)
      fb.set_param("herd", "separation_gompert", "comfort", 2.5)
      fb.set_param("herd", "cohesion_gompert", "distance", 3)
    end
  end,
}

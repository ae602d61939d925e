-- scripts/sheep_gate.lua — sheep driven to a narrow gate in a fence; they mill round it and trickle
-- through (Parker, "Boids pseudocode", tend_to_place and the narrow gate).
-- Every sheep tends to the gate (Parker's tend_to_place, capped); once it reaches it, its goal
-- becomes the pasture beyond, so it moves on and makes room (gate_pass). Parker's three rules keep
-- the flock together and apart, and a repulsive field keeps the sheep off the fence (Gompert 6.1);
-- the fence itself is solid. The through column of the CSV counts the sheep past the fence.
-- Try: flockbox --headless --steps 3000 --csv sheep.csv scripts/sheep_gate.lua

local FENCE_X, GATE_Y, GATE_HALF = 120, 70, 4 -- the fence line and the gate opening, y in 66..74

return {
  name = "Sheep at a gate",
  world = { width = 200, height = 140, dt = 0.05, bounds = "clamp",
    update = "semi_implicit" }, -- Parker moves each boid by its new velocity
  obstacles = {
    { polygon = { { FENCE_X - 2, 0 }, { FENCE_X + 2, 0 }, { FENCE_X + 2, GATE_Y - GATE_HALF }, { FENCE_X - 2, GATE_Y - GATE_HALF } } },
    { polygon = { { FENCE_X - 2, GATE_Y + GATE_HALF }, { FENCE_X + 2, GATE_Y + GATE_HALF }, { FENCE_X + 2, 140 }, { FENCE_X - 2, 140 } } },
  },
  goals = { gate = { FENCE_X, GATE_Y }, pasture = { 170, GATE_Y } },
  species = {
    {
      name = "sheep", count = 40,
      spawn = { area = { 20, 30, 80, 110 }, speed = { 0, 1 } },
      body_length = 2, max_speed = 5, min_speed = 0, cruise_speed = 3, max_accel = 10,
      vision = { radius = 12, fov = 300, separation = 3 },
      colour = { 235, 235, 225 },
      rules = {
        { "avoid_repulsive", params = { range = 8, reach = 1.5 } },
        { "separation" },
        { "alignment" },
        { "cohesion", params = { divisor = 2000 } }, -- at Parker's 100 the flock jams in the gate: 6 of 40 through in 60 s
        { "gate_pass", params = { gate = "gate", beyond = "pasture", reach = 4, max = 3 } },
        { "soft_bounds", params = { margin = 5, push = 0.01 } },
      },
    },
  },
  metrics = {
    { "through", function()
        local n = 0
        for a in fb.each() do
          n = n + (a.x > FENCE_X and 1 or 0)
        end
        return n
      end },
  },
}

-- scripts/table2_insects.lua — Gompert's Table 2, "swarm of insects": animals that see each other only to move to the centre of the swarm (Flocking Over 3D Terrain, section 9.3).
-- With the visible range of the collision avoidance set to nothing (R_f = 0 for avoid-collision:
-- vision.separation = 0, and no alignment), each insect only heads for the centre of the others
-- it sees, at its cruising speed (min_speed keeps it flying). They overshoot the centre, turn and
-- come back: they seem to move at random or orbit the swarm's centre of mass, with full speed and
-- little common heading. The CSV's polarisation stays low while mean_speed stays near cruise.
return {
  name = "Table 2: swarm of insects",
  world = { width = 200, height = 200, dt = 0.05, bounds = "clamp",
    update = "euler" }, -- Gompert eq. 1: moved by the velocity it had
  view = { 100, 100, 60 }, -- the window opens on the swarm, 60 units across (Home: the same)
  species = {
    {
      name = "insect", count = 60,
      spawn = { around = { 100, 100, 30 }, speed = { 3, 6 } },
      body_length = 0.5, max_speed = 10, min_speed = 5, cruise_speed = 7, max_accel = 40,
      -- flying insects pass over and under each other; in a top-down world bodies would have to
      -- shove instead, and the swarm slows to min_speed (5.4 units/s after 75 s with collide = true)
      collide = false,
      vision = { radius = 60, fov = 360, separation = 0 },
      accumulator = "prioritised",
      colour = { 230, 220, 120 },
      rules = {
        { "cohesion_gompert", params = { distance = 10 } },
        { "soft_bounds", params = { margin = 10, push = 0.025 } },
      },
    },
  },
}

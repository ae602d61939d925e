-- behaviours/wind.lua — the same push for every agent, like a breeze or a current (Parker, "Boids pseudocode", strong_wind).
-- Parker's strong_wind returns one vector whatever the boid: a = (x, y), an acceleration in world
-- units/s^2 (y points down the map).
return {
  params = {
    x = { 0, help = "the push along x, world units/s^2" },
    y = { 0, help = "the push along y (down the map), world units/s^2" },
  },

  steer = function(a, p)
    return p.x, p.y
  end,
}

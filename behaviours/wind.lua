-- behaviours/wind.lua — the same push for every agent, like a breeze or a current (Parker, "Boids pseudocode", strong_wind).
-- a = (x, y), an acceleration in world units/s^2 (y points down the map).
return {
  params = { x = 0, y = 0 },

  steer = function(a, p, s)
    return p.x, p.y
  end,
}

-- tests/behaviours/tamper.lua — test-only: tampers with what it can reach (p.what says which), then steers nowhere.
-- Whatever it does must change nothing for any other rule or species (test_rule_api.c).
local steer_ok = function() return 0, 0 end

local attacks = {
  -- its agent view: the fields other rules read, the methods, the view as a whole
  view = function(a)
    a.x, a.y, a.vx, a.vy, a.cx, a.cy, a.avx, a.avy, a.sx, a.sy, a.n = 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    a.neighbour, a.nearest_agent, a.get, a.set = nil, nil, nil, nil
    rawset(a, "id", -1)
  end,
  view_metatable = function(a)
    setmetatable(a, nil) -- refused: the view's metatable is protected; this rule fails
  end,
  species = function(a, p, s)
    s.dt, s.max_accel, s.max_speed, s.radius, s.name = 0, 0, 0, 0, "nobody"
  end,
  params = function(a, p)
    p.what, p.divisor = "params", 0
  end,
  library = function()
    math.sqrt, math.huge, math.abs = nil, 0, nil
    string.format, table.insert = nil, nil
    steering.tend, steering.length = function() return 1e9, 1e9 end, nil
  end,
  fb = function()
    fb.goal, fb.terrain, fb.time = nil, nil, nil
    fb.world.dt, fb.world.width = 0, 1
  end,
  string_metatable = function()
    getmetatable("").__index = {} -- refused: the string metatable is protected; this rule fails
  end,
  globals_metatable = function()
    setmetatable(_G, { __index = function() error("poisoned global") end, __newindex = function() end })
    _G.steering, _G.math, _G.fb = nil, nil, nil
  end,
}

return {
  params = { what = { "view", help = "which attack" } },
  steer = function(a, p, s)
    local attack = attacks[p.what]
    if attack then
      attack(a, p, s)
    end
    return steer_ok()
  end,
}

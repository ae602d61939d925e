-- tools/terrain_slopes.lua — the slope distribution of gompert_trip's generated terrain: median, 90th percentile and maximum of |grad h|.
-- Run headless with the trip's terrain settings, one terrain per seed, e.g.
--   build/flockbox --headless --steps 1 --set terrain.generate=7 --set terrain.height=5 tools/terrain_slopes.lua
-- It prints one line: "slopes generate=7 height=5 median=... p90=... max=...". The gradient is
-- sampled with fb.terrain on a 200 x 200 lattice of cell centres over the whole 40 x 40 world.
local N = 200

return {
  name = "slopes of Gompert's trip terrain",
  world = { width = 40, height = 40, dt = 0.01, bounds = "clamp" },
  terrain = { generate = 1, samples = 40, feature = 10, height = 1 },  -- as scripts/gompert_trip.lua
  species = { { name = "none", count = 0, rules = {} } },
  on_step = function()
    local s = {}
    for i = 0, N - 1 do
      for j = 0, N - 1 do
        local _, gx, gy = fb.terrain((i + 0.5) * 40 / N, (j + 0.5) * 40 / N)
        s[#s + 1] = math.sqrt(gx * gx + gy * gy)
      end
    end
    table.sort(s)
    local function q(p) return s[math.floor(p * (#s - 1)) + 1] end
    print(string.format("slopes median=%.4f p90=%.4f max=%.4f", q(0.5), q(0.9), s[#s]))
    fb.stop("measured")
  end,
}

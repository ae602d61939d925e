-- scripts/rimea/test04_fundamental.lua — RiMEA test 4 (guideline 4.1.1, Annex 1): the walking speed against the density in a corridor, the fundamental diagram, to set beside Weidmann's curve.
-- A corridor 20 m long and 2 m wide (walls at y = 1 and y = 3) that wraps at its ends, so the
-- density stays what it was set to: N pedestrians (`--set walker.count=N`) on 40 m², N / 40 per m².
-- Everyone wants the free speed 1.34 m/s along the corridor (a uniform flow field), no faster than
-- the gap ahead allows (the preset's headway option, follow_flow_headway); ORCA keeps them apart. CSV: `density` (/m²), `speed` (the mean speed along the corridor now, m/s),
-- `weidmann` (Weidmann's speed at this density, m/s).
-- Try: build/flockbox --headless --steps 600 --set walker.count=80 --csv t4.csv scripts/rimea/test04_fundamental.lua
-- The whole curve: tools/rimea_fundamental.sh (a gnuplot picture, docs/pictures/rimea_fundamental.png).
local ped = require("pedestrian")
local L, B, AREA, LANES = 20, 2, 40, 4

local function box(x0, y0, x1, y1) return { polygon = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } } end

local function count()
  local n = 0
  for _ in fb.each("walker") do n = n + 1 end
  return n
end

-- At the first step the N spawned at random are laid out again in four lanes 0.5 m apart (as many
-- as the corridor holds without bodies touching side by side), staggered, evenly spaced along each:
-- a random spawn overlaps bodies, and a body overlapping the one ahead stands still.
local laid = false
local function lay_out()
  local ids = {}
  for a in fb.each("walker") do ids[#ids + 1] = a.id end
  local n = #ids
  local rows = math.min(n, LANES)
  local cols = math.ceil(n / rows)
  for k, id in ipairs(ids) do
    fb.remove(id)
    local r, c = (k - 1) % rows, (k - 1) // rows
    fb.spawn("walker", (c + 0.5 + 0.5 * (r % 2)) * L / cols, 1 + (r + 0.5) * B / rows)
  end
  laid = true
end

return {
  name = "RiMEA test 4: the fundamental diagram",
  world = ped.world(L, B + 2, "wrap"),
  obstacles = { box(0, 0, L, 1), box(0, B + 1, L, B + 2) },
  flow_fields = { along = { fn = function() return ped.free_speed, 0 end, cell = 1 } },
  species = { ped.species({ name = "walker", count = 40, field = "along", headway = true,
    spawn = { area = { 0, 1 + ped.radius, L, B + 1 - ped.radius }, speed = 0 } }) },
  on_step = function()
    if not laid then lay_out() end
  end,
  metrics = {
    { "density", function() return count() / AREA end },
    { "speed", function()
        local n, sum = 0, 0
        for a in fb.each("walker") do n, sum = n + 1, sum + a.vx end
        return n > 0 and sum / n or 0
      end },
    { "weidmann", function() return ped.weidmann(count() / AREA) end },
  },
}

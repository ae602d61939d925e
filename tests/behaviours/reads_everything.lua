-- tests/behaviours/reads_everything.lua — test-only: reads every key of the agent view and 16 declared fields, more values than Lua's minimum stack; fails if one is wrong.
-- Every key is written out (a.x, not a[k]) so that the view is primed with all of them before the
-- first agent: the filler then pushes 33 values onto a stack that nothing has grown yet.
return {
  fields = { f1 = 1, f2 = 2, f3 = 3, f4 = 4, f5 = 5, f6 = 6, f7 = 7, f8 = 8, f9 = 9, f10 = 10, f11 = 11, f12 = 12,
    f13 = 13, f14 = 14, f15 = 15, f16 = 16 },

  steer = function(a)
    local sum = a.x + a.y + a.vx + a.vy + a.hx + a.hy + a.cx + a.cy + a.avx + a.avy + a.sx + a.sy + a.energy + a.speed
      + a.n + a.id + (a.nearest_dist < math.huge and 0 or 0)
    local fields = a.f1 + a.f2 + a.f3 + a.f4 + a.f5 + a.f6 + a.f7 + a.f8 + a.f9 + a.f10 + a.f11 + a.f12 + a.f13
      + a.f14 + a.f15 + a.f16
    if fields ~= 136 or sum ~= sum or a.id < 1 then
      error("fields sum to " .. fields .. ", view keys to " .. sum)
    end
    return 0, 0
  end,
}

-- tests/behaviours/mates_check.lua — test-only: a.mates must hold exactly what a:neighbour(k) returns,
-- a.n entries in each array, in the same order; any difference is an error (the rule is switched off).
return {
  params = { arrays = { 6, min = 1, max = 6, help = "how many of the arrays to read (dx, dy, dist, vx, vy, id)" } },
  steer = function(a, p)
    local m = a.mates
    local names = { "dx", "dy", "dist", "vx", "vy", "id" }
    for k = 1, a.n do
      local got = { a:neighbour(k) }
      for i = 1, p.arrays do
        if m[names[i]][k] ~= got[i] then
          error(string.format("a.mates.%s[%d] = %s, a:neighbour gives %s", names[i], k, tostring(m[names[i]][k]), tostring(got[i])))
        end
      end
    end
    for i = 1, p.arrays do
      if #m[names[i]] ~= a.n then
        error(string.format("#a.mates.%s = %d, a.n = %d", names[i], #m[names[i]], a.n))
      end
    end
    return 0, 0
  end,
}

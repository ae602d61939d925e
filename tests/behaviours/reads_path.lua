-- tests/behaviours/reads_path.lua — test-only: copies what fb.path returns into per-agent fields
-- (px, py, tx, ty, pspeed; found = 0 when there is no such path); steers nowhere.
return {
  params = { path = { "route", help = "the path read" } },
  fields = { px = 0, py = 0, tx = 0, ty = 0, pspeed = 0, found = 0 },
  steer = function(a, p)
    local x, y, tx, ty, v = fb.path(p.path)
    if x == nil then
      a:set("found", 0)
      return 0, 0
    end
    a:set("px", x)
    a:set("py", y)
    a:set("tx", tx)
    a:set("ty", ty)
    a:set("pspeed", v)
    a:set("found", 1)
    return 0, 0
  end,
}

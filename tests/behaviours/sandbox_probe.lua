-- tests/behaviours/sandbox_probe.lua — tries what a sandboxed rule must not be able to do.
return {
  params = { what = "os" },
  steer = function(a, p, s)
    if p.what == "os" then
      os.execute("touch /tmp/flockbox_sandbox_escaped")
    elseif p.what == "io" then
      io.open("/tmp/flockbox_sandbox_escaped", "w")
    elseif p.what == "bytecode" then
      local f = assert(load("\27Lua\84\0\25\147\13\10\26\10\4\8\8", "=bytecode", "b"))
      f()
    elseif p.what == "require" then
      require("os")
    elseif p.what == "random" then
      return math.random(), 0
    end
    return 0, 0
  end,
}

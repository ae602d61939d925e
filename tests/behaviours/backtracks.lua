-- tests/behaviours/backtracks.lua — test-only: string matching that backtracks for ages inside C, where no time limit can reach.
-- p.how picks the library call; each would run for hours on these 200 characters.
return {
  params = { how = { "find", help = "find, match, gmatch, gsub or method" } },
  steer = function(a, p)
    local subject, pattern = string.rep("a", 200), string.rep(".-", 8) .. "b"
    if p.how == "find" then
      string.find(subject, pattern)
    elseif p.how == "match" then
      string.match(subject, pattern)
    elseif p.how == "gmatch" then
      for _ in string.gmatch(subject, pattern) do end
    elseif p.how == "gsub" then
      string.gsub(subject, pattern, "")
    else
      subject:find(pattern)
    end
    -- ordinary patterns still work: a trim, a number, a plain find of specials
    assert(("  x  "):match("^%s*(.-)%s*$") == "x" and ("v=12"):match("(%d+)") == "12")
    assert(string.find("a.-b", ".-", 1, true) == 2)
    return 0, 0
  end,
}

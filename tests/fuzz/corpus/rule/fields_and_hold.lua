0
a:set("mark", a.mark + 1) a:hold() return a:random(), a:random(2)

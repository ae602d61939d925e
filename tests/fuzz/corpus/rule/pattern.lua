0
local s = string.rep("a", 30) .. "b" return #string.find(s, "(a*)*b") , 0

0
return math.huge, -math.huge

0
while true do end

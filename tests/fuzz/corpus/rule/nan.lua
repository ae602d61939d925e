0
return 0/0, 0

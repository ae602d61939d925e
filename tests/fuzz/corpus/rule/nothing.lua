0
return

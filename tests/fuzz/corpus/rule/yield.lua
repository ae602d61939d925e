0
return coroutine.yield(1, 2)

local t = {}
for i = 1, 20000 do t[i] = "k" .. i .. string.rep("x", i % 50) end
local m = {}
for i, v in ipairs(t) do m[v] = {i, v:upper()} end
local s = table.concat(t, ",", 1, 2000)
print(#s, #t)

-- alloc.lua — an allocation-heavy Lua workload for heapprof's benchmarks.
--
--   lua alloc.lua [SCALE]        (default 10)
--
-- Three phases, each scaled linearly by SCALE, all deterministic:
--   trees    binary trees (tables {left, right}) built, checked, dropped;
--   strings  string building: concatenation, string.format, table.concat,
--            gsub, so the interpreter allocates and frees many short strings;
--   records  arrays of record tables filled, sorted, filtered and dropped.
-- The interpreter allocates through realloc/free (its l_alloc), and its
-- garbage collector frees in batches, which is the pattern the C
-- microbenchmarks do not have. Prints one checksum line.

local scale = tonumber(arg and arg[1]) or 10
local floor = math.floor
local M = 1000000007

local function make(d)
  if d == 0 then return {} end
  d = d - 1
  return { make(d), make(d) }
end

local function check(t)
  if t[1] then return 1 + check(t[1]) + check(t[2]) end
  return 1
end

local function trees(n)
  local sum = 0
  local long_lived = make(12)
  for i = 1, n do
    for d = 4, 12, 4 do
      sum = (sum + check(make(d)) * i) % M
    end
  end
  return (sum + check(long_lived)) % M
end

local function strings(n)
  local sum = 0
  for i = 1, n do
    local parts = {}
    local s = ""
    for j = 1, 60 do
      s = s .. string.char(97 + (i + j) % 26)
      parts[#parts + 1] = string.format("%d:%s;", j * i, s:sub(-8))
    end
    local joined = table.concat(parts)
    local replaced = joined:gsub("%d+", function(d) return #d end)
    sum = (sum + #joined * 31 + #replaced + s:byte(-1)) % M
  end
  return sum
end

local function records(n)
  local sum = 0
  local seed = 12345
  local function rnd()
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed
  end
  for i = 1, n do
    local recs = {}
    for j = 1, 400 do
      recs[j] = { id = j, key = rnd() % 100000, name = "r" .. (rnd() % 997),
                  tags = { j % 3, j % 5, j % 7 } }
    end
    table.sort(recs, function(a, b)
      if a.key ~= b.key then return a.key < b.key end
      return a.id < b.id
    end)
    local kept = {}
    for _, r in ipairs(recs) do
      if r.tags[1] == 0 or r.tags[2] == 0 then
        kept[#kept + 1] = { r.id, r.name .. "!" }
      end
    end
    sum = (sum + recs[1].key + recs[#recs].key * 7 + #kept) % M
  end
  return sum
end

local t = trees(scale * 4)
local s = strings(scale * 200)
local r = records(scale * 20)
print(string.format("lua checksum %d %d %d", t, s, r))

-- wrk script for bench/http.ts: GET /v1/verify/<random unknown uuid> with `Authorization: Bearer <key>`,
-- rotating over the keys in the file given as the first script argument (one a line; none: no header;
-- the second argument is wrk's thread count),
-- so that no key meets the per-key rate limit. Counts answers by status and prints one JSON line.
--   wrk -t2 -c50 -d10s -s bench/verify-get.lua http://127.0.0.1:8080 -- keys.txt 2

local threads = {}

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

function init(args)
  keys = {}
  if args[1] ~= nil and args[1] ~= "" then
    for line in io.lines(args[1]) do
      if line ~= "" then keys[#keys + 1] = "Bearer " .. line end
    end
  end
  -- wrk starts each thread right after its init, so the thread count comes as the second argument.
  nthreads = tonumber(args[2]) or 1
  counter = tid
  math.randomseed(os.time() * 1000 + tid * 7919)
  s2xx, s401, s404, s429, sother, notfound = 0, 0, 0, 0, 0, 0
end

local function hex(n, digits)
  return string.format("%0" .. digits .. "x", math.random(0, 16 ^ digits - 1))
end

function request()
  local path = "/v1/verify/" .. hex(8, 8) .. "-" .. hex(4, 4) .. "-4" .. hex(3, 3) .. "-a" .. hex(3, 3) .. "-"
    .. hex(6, 6) .. hex(6, 6)
  local headers = {}
  if #keys > 0 then
    headers["Authorization"] = keys[(counter % #keys) + 1]
    counter = counter + nthreads
  end
  return wrk.format("GET", path, headers)
end

function response(status, headers, body)
  if status == 404 then
    s404 = s404 + 1
    if string.find(body, '"not_found"', 1, true) then notfound = notfound + 1 end
  elseif status == 429 then
    s429 = s429 + 1
  elseif status == 401 then
    s401 = s401 + 1
  elseif status >= 200 and status < 300 then
    s2xx = s2xx + 1
  else
    sother = sother + 1
  end
end

function done(summary, latency, requests)
  local c = { s2xx = 0, s401 = 0, s404 = 0, s429 = 0, sother = 0, notfound = 0 }
  for _, t in ipairs(threads) do
    for k, _ in pairs(c) do c[k] = c[k] + (t:get(k) or 0) end
  end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"duration_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,'
      .. '"s2xx":%d,"s401":%d,"s404":%d,"s429":%d,"other":%d,"not_found":%d,'
      .. '"errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, c.s2xx, c.s401, c.s404, c.s429, c.sother, c.notfound,
    e.connect, e.read, e.write, e.timeout))
end

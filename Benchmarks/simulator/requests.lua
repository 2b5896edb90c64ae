-- wrk script: GET requests over keep-alive connections, cycling through a list of paths, each with a bearer token.
-- BENCH_PATHS_FILE: one path per line; BENCH_TOKEN_FILE: the bearer token (read from a file, never argv).
-- Counts non-2xx responses per thread and prints the total at the end.
local function lines(name)
  local list = {}
  for line in io.lines(name) do if #line > 0 then list[#list + 1] = line end end
  return list
end
local paths = lines(os.getenv("BENCH_PATHS_FILE"))
local token = io.open(os.getenv("BENCH_TOKEN_FILE")):read("*l")
local threads = {}

function setup(thread)
  thread:set("id", #threads)
  threads[#threads + 1] = thread
end

function init(args)
  counter = id * 7919
  non2xx = 0
  status429 = 0
  headers = { ["Authorization"] = "Bearer " .. token, ["Accept"] = "application/json" }
end

function request()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1], headers)
end

function response(status, headers, body)
  if status < 200 or status > 299 then non2xx = non2xx + 1 end
  if status == 429 then status429 = status429 + 1 end
end

function done(summary, latency, requests)
  local n, r = 0, 0
  for _, t in ipairs(threads) do n = n + t:get("non2xx"); r = r + t:get("status429") end
  io.write(string.format("bench-result requests=%d seconds=%.3f per_second=%.0f bytes_per_response=%.0f p50_ms=%.2f p99_ms=%.2f non2xx=%d status429=%d socket_errors=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6), summary.bytes / math.max(summary.requests, 1),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, n, r,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end

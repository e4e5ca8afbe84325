-- wrk script for scripts/load/run.py.
--   WRK_BODY_FILE   optional POST body (JSON)
--   WRK_PATHS_FILE  optional: one request path per line, sent round-robin (each thread starts at its own offset)
--   WRK_UNIQUE      optional: 1 appends &u=THREAD-N to every path (every request distinct: no cache hits)
--   WRK_RATE        optional: total requests/s to offer (paced run). Each thread keeps a fixed schedule of
--                   send times (rate / threads per second) and delay() holds every connection until the next
--                   free slot; a slot whose time has passed is sent at once and counted as late.
-- At the end, one JSON line with counts and latencies (µs) and, when paced, how many sends were late.
local body_file = os.getenv("WRK_BODY_FILE")
if body_file and body_file ~= "" then
  local f = assert(io.open(body_file, "rb"))
  wrk.method = "POST"
  wrk.body = f:read("*a")
  f:close()
  wrk.headers["Content-Type"] = "application/json"
end

local paths = nil
local paths_file = os.getenv("WRK_PATHS_FILE")
if paths_file and paths_file ~= "" then
  paths = {}
  for line in io.lines(paths_file) do
    if line ~= "" then paths[#paths + 1] = line end
  end
end

local rate = tonumber(os.getenv("WRK_RATE") or "")
-- WRK_UNIQUE=1: append &u=THREAD-N to every path, so that no two requests are the same (no cache hits)
local unique = os.getenv("WRK_UNIQUE") == "1"
local counter = 0

-- ---- per-thread state (each wrk thread runs this file in its own Lua state) ---------------------------------
local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("id", thread_count)
  threads[#threads + 1] = thread
end

local ffi = require("ffi")
ffi.cdef[[
  typedef struct { long tv_sec; long tv_nsec; } roc_timespec;
  int clock_gettime(int clk_id, roc_timespec *tp);
]]
local ts = ffi.new("roc_timespec")
local function now_us()
  ffi.C.clock_gettime(1, ts)  -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000000 + tonumber(ts.tv_nsec) / 1000
end

local next_path = 1
local interval_us = nil
local next_slot = nil
late = 0          -- read by done() through thread:get
max_late_us = 0
sent = 0

function init(args)
  if paths then
    next_path = ((id or 1) - 1) * 3 % #paths + 1
  end
  if rate then
    local per_thread = rate / (tonumber(os.getenv("WRK_THREADS") or "1"))
    interval_us = 1000000 / per_thread
  end
end

if paths or unique then
  function request()
    local path = wrk.path
    if paths then
      path = paths[next_path]
      next_path = next_path % #paths + 1
    end
    if unique then
      counter = counter + 1
      path = path .. (path:find("?", 1, true) and "&" or "?") .. "u=" .. (id or 1) .. "-" .. counter
    end
    return wrk.format(nil, path)
  end
end

if rate then
  function delay()
    local now = now_us()
    if next_slot == nil then next_slot = now end
    local wait = next_slot - now
    next_slot = next_slot + interval_us
    sent = sent + 1
    if wait < 0 then
      -- more than 1 ms behind the schedule: the server (or this machine) did not keep up
      if -wait > 1000 then late = late + 1 end
      if -wait > max_late_us then max_late_us = -wait end
      return 0
    end
    return math.floor(wait / 1000)  -- wrk takes whole milliseconds
  end
end

done = function(summary, latency, requests)
  local e = summary.errors
  local late_total, max_late, sent_total = 0, 0, 0
  for _, t in ipairs(threads) do
    late_total = late_total + (t:get("late") or 0)
    sent_total = sent_total + (t:get("sent") or 0)
    local m = t:get("max_late_us") or 0
    if m > max_late then max_late = m end
  end
  io.write(string.format(
    'JSON {"requests": %d, "duration_us": %d, "bytes": %d, "connect": %d, "read": %d, "write": %d, ' ..
    '"status": %d, "timeout": %d, "p50": %d, "p90": %d, "p95": %d, "p99": %d, "max": %d, "mean": %.1f, ' ..
    '"late": %d, "max_late_us": %d, "scheduled": %d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99),
    latency.max, latency.mean, late_total, max_late, sent_total))
end

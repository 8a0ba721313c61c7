-- wrk script for bloomlab gate: every request checks keys read from the
-- traffic file named by GATE_TRAFFIC (one key a line). GATE_BATCH = 0 (the
-- default) sends GET /check?key=K, one key a request; GATE_BATCH = B > 0
-- sends POST /check with B keys a body, one a line. Each wrk thread starts at
-- its own place in the file, so threads do not send the same keys in step.

local keys = {}
for line in io.lines(os.getenv("GATE_TRAFFIC")) do keys[#keys + 1] = line end
local batch = tonumber(os.getenv("GATE_BATCH") or "0")
local at = 1

local threads = 0
function setup(thread)
  thread:set("thread_id", threads)
  threads = threads + 1
end

function init(args)
  at = 1 + ((thread_id or 0) * 7919) % #keys
end

local function next_key()
  local k = keys[at]
  at = at + 1
  if at > #keys then at = 1 end
  return k
end

function request()
  if batch == 0 then
    return wrk.format("GET", "/check?key=" .. next_key())
  end
  local body = {}
  for i = 1, batch do body[i] = next_key() end
  return wrk.format("POST", "/check", { ["Content-Type"] = "text/plain" }, table.concat(body, "\n"))
end

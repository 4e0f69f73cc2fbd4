-- Shared helpers of the step scripts: each step records what Neovim saw, as JSON, in
-- $SUBAGENTS_OUT/<step>.json; the Node driver (driver.mjs) asserts on it.
local M = {}

M.out = assert(os.getenv('SUBAGENTS_OUT'), 'SUBAGENTS_OUT is not set')
M.root = assert(os.getenv('SUBAGENTS_ROOT'), 'SUBAGENTS_ROOT is not set')

function M.client()
  return vim.lsp.get_active_clients({ name = 'subagents' })[1]
end

function M.write(step, data)
  local f = assert(io.open(M.out .. '/' .. step .. '.json', 'w'))
  f:write(vim.fn.json_encode(data))
  f:close()
end

--- The current buffer's diagnostics from the server, in LSP terms (0-based lines and columns).
function M.diagnostics()
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out, {
      code = d.code,
      severity = d.severity,
      message = d.message,
      range = { d.lnum, d.col, d.end_lnum, d.end_col },
    })
  end
  table.sort(out, function(a, b) return a.range[1] < b.range[1] or (a.range[1] == b.range[1] and a.range[2] < b.range[2]) end)
  return out
end

function M.has_code(code)
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.code == code then return true end
  end
  return false
end

--- Waits until `check()` is true; returns whether it became true and how long it took (ms).
function M.wait(ms, check)
  local started = vim.loop.hrtime()
  local ok = vim.wait(ms, check, 20)
  return ok, math.floor((vim.loop.hrtime() - started) / 1e6)
end

--- One request to the subagents client, synchronously; returns its result or nil and an error.
function M.request(method, params, ms)
  local responses, err = vim.lsp.buf_request_sync(0, method, params, ms or 3000)
  if not responses then return nil, err end
  for _, r in pairs(responses) do
    if r.err then return nil, r.err.message end
    return r.result
  end
  return nil, 'no response'
end

function M.uri()
  return vim.uri_from_bufnr(0)
end

return M

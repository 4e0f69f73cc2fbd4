-- Change .subagents.yaml on disk, outside Neovim (it is not open in any buffer, so no didSave):
-- Neovim 0.7 cannot register file watchers, so only the server's own watching can notice.
-- `deploy` becomes a known tool and polytoken/unknown-tool goes.
local probe = dofile(vim.env.SUBAGENTS_STEPS .. '/probe.lua')

local config = probe.root .. '/.subagents.yaml'
local before = probe.diagnostics()
local f = assert(io.open(config, 'w'))
f:write('tools:\n  polytoken: [shell, deploy]\n')
f:close()
local rechecked, waited = probe.wait(8000, function() return not probe.has_code('polytoken/unknown-tool') end)
probe.write('06-config-on-disk', {
  config_in_a_buffer = vim.fn.bufnr(config) ~= -1,
  before = before,
  rechecked = rechecked,
  waited_ms = waited,
  after = probe.diagnostics(),
})

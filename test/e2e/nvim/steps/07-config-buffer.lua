-- Edit .subagents.yaml in a buffer, unsaved: a misspelt severity is reported (config/invalid),
-- hover documents the rule id, completion offers rule ids, and Neovim's code-action flow applies
-- "Change to `warning`", which clears the problem.
local probe = dofile(vim.env.SUBAGENTS_STEPS .. '/probe.lua')

vim.cmd('edit ' .. vim.fn.fnameescape(probe.root .. '/.subagents.yaml'))
local attached = probe.wait(5000, function() return #vim.lsp.buf_get_clients(0) > 0 end)
vim.api.nvim_buf_set_lines(0, -1, -1, true, { 'rules:', '  polytoken/unknown-tool: warn', '  polytoken/unk' })
local reported = probe.wait(5000, function() return probe.has_code('config/invalid') end)

local hover = probe.request('textDocument/hover', { textDocument = { uri = probe.uri() }, position = { line = 3, character = 5 } })
local completion, completion_error = probe.request('textDocument/completion', { textDocument = { uri = probe.uri() }, position = { line = 4, character = 15 } })
local labels = {}
for _, item in ipairs(completion and (completion.items or completion) or {}) do table.insert(labels, item.label) end
vim.api.nvim_buf_set_lines(0, 4, 5, true, {})
-- `  polytoken/unk` continued the plain scalar `warn` (its range spanned both lines): wait for the
-- diagnostic of the text without it, since the server offers fixes only for its current ones.
probe.wait(5000, function()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.code == 'config/invalid' and d.lnum == 3 and d.end_lnum == 3 then return true end
  end
  return false
end)

local offered = nil
vim.ui.select = function(items, _, on_choice)
  offered = {}
  local chosen = nil
  for _, tuple in ipairs(items) do
    table.insert(offered, tuple[2].title)
    if tuple[2].title == 'Change to `warning`' then chosen = tuple end
  end
  on_choice(chosen)
end
vim.api.nvim_win_set_cursor(0, { 4, 27 }) -- on `warn`
vim.lsp.buf.code_action()
probe.wait(5000, function() return offered ~= nil end)
local fixed = probe.wait(5000, function() return not probe.has_code('config/invalid') end)
probe.write('07-config-buffer', {
  attached = attached,
  reported = reported,
  hover = hover and hover.contents and hover.contents.value,
  labels = labels,
  completion_error = completion_error,
  offered = offered or {},
  rule_line = vim.api.nvim_buf_get_lines(0, 3, 4, true)[1],
  fixed = fixed,
})

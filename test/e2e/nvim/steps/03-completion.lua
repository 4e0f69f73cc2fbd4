-- Type `  tools: [file_read, ` (a space used to trigger completion there) and ask for completion
-- at the end of the line, then restore the line.
local probe = dofile(vim.env.SUBAGENTS_STEPS .. '/probe.lua')

local original = vim.api.nvim_buf_get_lines(0, 4, 5, true)[1]
local typed = '  tools: [file_read, '
vim.api.nvim_buf_set_lines(0, 4, 5, true, { typed })
local result, err = probe.request('textDocument/completion', { textDocument = { uri = probe.uri() }, position = { line = 4, character = #typed } })
local items = result and (result.items or result) or {}
local labels, edits = {}, {}
for _, item in ipairs(items) do
  table.insert(labels, item.label)
  if item.label == 'glob' then edits.glob = item.textEdit end
end

vim.api.nvim_buf_set_lines(0, 4, 5, true, { original })
local restored = probe.wait(5000, function()
  return probe.has_code('polytoken/name-mismatch') and probe.has_code('polytoken/unknown-tool') and not probe.has_code('syntax/yaml')
end)
probe.write('03-completion', { typed = typed, error = err, labels = labels, glob_edit = edits.glob, restored = restored })

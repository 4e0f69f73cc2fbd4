-- Neovim's own code-action flow (vim.lsp.buf.code_action, with vim.ui.select answered here) on
-- the `name` line: apply "Set name to `reviewer`" and see polytoken/name-mismatch go.
local probe = dofile(vim.env.SUBAGENTS_STEPS .. '/probe.lua')

local offered, chosen = nil, nil
vim.ui.select = function(items, opts, on_choice)
  offered = {}
  for _, tuple in ipairs(items) do
    local action = tuple[2]
    table.insert(offered, {
      title = action.title,
      kind = action.kind,
      edit_keys = action.edit and vim.tbl_keys(action.edit) or {},
    })
    if action.title == 'Set name to `reviewer`' then chosen = tuple end
  end
  on_choice(chosen)
end

vim.api.nvim_win_set_cursor(0, { 2, 7 }) -- on `reviewr`
vim.lsp.buf.code_action()
local answered = probe.wait(5000, function() return offered ~= nil end)
local fixed, waited = probe.wait(5000, function()
  return not probe.has_code('polytoken/name-mismatch') and probe.has_code('polytoken/unknown-tool')
end)
probe.write('04-code-action', {
  answered = answered,
  offered = offered or {},
  applied = chosen ~= nil,
  name_line = vim.api.nvim_buf_get_lines(0, 1, 2, true)[1],
  fixed = fixed,
  waited_ms = waited,
  diagnostics = probe.diagnostics(),
})

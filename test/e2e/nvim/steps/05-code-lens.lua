-- The code lens: Neovim runs its command with workspace/executeCommand (vim.lsp.codelens.run);
-- without window/showDocument support (0.7) the server answers with a window/showMessage
-- naming the file it wrote the Markdown rendering to.
local probe = dofile(vim.env.SUBAGENTS_STEPS .. '/probe.lua')

local messages = {}
vim.lsp.handlers['window/showMessage'] = function(_, result)
  table.insert(messages, result)
  return vim.NIL
end

vim.lsp.codelens.refresh()
local got_lenses = probe.wait(5000, function() return #vim.lsp.codelens.get(0) > 0 end)
local lenses = {}
for _, lens in ipairs(vim.lsp.codelens.get(0)) do
  table.insert(lenses, { line = lens.range.start.line, title = lens.command and lens.command.title, command = lens.command and lens.command.command })
end

vim.api.nvim_win_set_cursor(0, { 1, 0 })
vim.lsp.codelens.run()
local shown = probe.wait(5000, function() return #messages > 0 end)
local message = messages[1] and messages[1].message or ''
local path = message:match('Full resolution: ([^\n]+)')
local rendering = nil
if path then
  local f = io.open(path, 'r')
  if f then
    rendering = f:read('*a')
    f:close()
  end
end
probe.write('05-code-lens', { got_lenses = got_lenses, lenses = lenses, shown = shown, message = message, message_type = messages[1] and messages[1].type, rendering_path = path, rendering = rendering })

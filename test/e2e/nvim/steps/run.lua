-- Runs the steps in order in this Neovim (one server session), then quits. A step that fails
-- records its error in its JSON file instead of what it saw.
local dir = vim.env.SUBAGENTS_STEPS
local steps = { '01-diagnostics', '02-hover', '03-completion', '04-code-action', '05-code-lens', '06-config-on-disk', '07-config-buffer' }
for _, step in ipairs(steps) do
  local ok, err = pcall(dofile, dir .. '/' .. step .. '.lua')
  if not ok then
    local f = io.open(vim.env.SUBAGENTS_OUT .. '/' .. step .. '.json', 'w')
    if f then
      f:write(vim.fn.json_encode({ step_error = tostring(err) }))
      f:close()
    end
  end
end
vim.cmd('qa!')

-- Neovim 0.7 configuration for the language server, as in docs/editors.md ("Neovim 0.7"),
-- with the server command and the workspace folder taken from the environment the driver sets.
vim.opt.swapfile = false

local repo = assert(os.getenv('SUBAGENTS_REPO'), 'SUBAGENTS_REPO is not set')
local root = assert(os.getenv('SUBAGENTS_ROOT'), 'SUBAGENTS_ROOT is not set')

local client_id = vim.lsp.start_client({
  name = 'subagents',
  cmd = { 'node', repo .. '/dist/cli.js', 'lsp', '--stdio' },
  root_dir = root,
})

vim.api.nvim_create_autocmd('BufReadPost', {
  pattern = {
    '*/.polytoken/subagents/*.md',
    '*/.picasso/agents/*.md',
    '*/apps/cli/agents/*.yaml',
    '*/apps/cli/agents/*.yml',
    '*.expert.json',
    '.subagents.yaml',
  },
  callback = function(args)
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})

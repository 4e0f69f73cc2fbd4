-- Hover on the tool name `grep` in `  tools: [file_read, grep, deploy]`.
local probe = dofile(vim.env.SUBAGENTS_STEPS .. '/probe.lua')

local line = vim.api.nvim_buf_get_lines(0, 4, 5, true)[1]
local character = assert(line:find('grep', 1, true)) -- 1-based byte: the 0-based column of the `r`
local result, err = probe.request('textDocument/hover', { textDocument = { uri = probe.uri() }, position = { line = 4, character = character } })
local contents = result and result.contents or {}
probe.write('02-hover', {
  line = line,
  error = err,
  kind = contents.kind,
  value = contents.value,
  range = result and result.range,
})

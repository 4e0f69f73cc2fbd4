-- Open a definition: its diagnostics arrive.
local probe = dofile(vim.env.SUBAGENTS_STEPS .. '/probe.lua')

local ok, waited = probe.wait(10000, function()
  return probe.has_code('polytoken/name-mismatch') and probe.has_code('polytoken/unknown-tool')
end)
local caps = probe.client().server_capabilities
probe.write('01-diagnostics', {
  arrived = ok,
  waited_ms = waited,
  diagnostics = probe.diagnostics(),
  trigger_characters = caps.completionProvider and caps.completionProvider.triggerCharacters or {},
  commands = caps.executeCommandProvider and caps.executeCommandProvider.commands or {},
})

const FILES = `Definition files (by path, relative to the checked folder):
  Polytoken  **/.polytoken/subagents/*.md (and the global folder, for shadowing)
  Picasso    **/.picasso/agents/*.md, **/apps/cli/agents/*.yaml|yml
  Profy      **/*.expert.json
  .subagents.yaml (the project configuration) is checked too.`;

const EXIT = `Exit status: 0 no error (and warnings within --max-warnings), 1 errors or too many
warnings, 2 usage or I/O error (one line on stderr).`;

export const HELP = {
  main: `subagents: checks Polytoken, Profy and Picasso subagent definition files.

Usage:
  subagents check [PATH...] [--format text|json|sarif] [--config FILE] [--no-global] [--max-warnings N]
  subagents resolve FILE [--format text|json] [--config FILE] [--no-global]
  subagents rules [--format text|json|markdown]
  subagents lsp --stdio
  subagents --help | --version

Commands:
  check     report every problem in the definitions under PATH (default: .)
  resolve   print the tool set each definition in FILE really gets
  rules     list every rule with its default severity, summary and docs page
  lsp       start the language server on stdin/stdout

${FILES}

${EXIT}
Run \`subagents <command> --help\` for a command's options.
`,
  check: `Usage: subagents check [PATH...] [options]

Checks every definition file under each PATH (files or folders; default: the
current folder) and prints its diagnostics. node_modules/ and .git/ are skipped.

Options:
  --format text|json|sarif  output format (default: text)
                            text:  path:line:col severity message [rule], then a summary
                            json:  { files: [{ path, dialect, diagnostics }], summary }
                            sarif: SARIF 2.1.0
  --config FILE             use this configuration for every file instead of the
                            nearest .subagents.yaml
  --no-global               do not read Polytoken's global folder
                            ($XDG_CONFIG_HOME/polytoken/subagents)
  --max-warnings N          exit 1 when there are more than N warnings
  -h, --help                show this help

${FILES}

${EXIT}
`,
  resolve: `Usage: subagents resolve FILE [options]

Prints the effective tool set of each definition in FILE: its status (loads,
rejected, dropped), granted tools, undeferred tools, what was removed and why,
dropped allowlist entries and unexpanded shorthands.

Options:
  --format text|json   output format (default: text)
  --config FILE        use this configuration instead of the nearest .subagents.yaml
  --no-global          do not read Polytoken's global folder
  -h, --help           show this help

Exit status: 0 resolved, 2 when FILE is missing or not a definition file.
`,
  rules: `Usage: subagents rules [--format text|json|markdown]

Lists every rule with its id, default severity, one-line summary and docs page.
`,
  lsp: `Usage: subagents lsp --stdio

Starts the language server on stdin/stdout for any LSP editor.
`,
};

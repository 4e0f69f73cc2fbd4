import { CONFIG_FILE_NAME, dialectModules } from '../shared';

/** The files each runtime reads, from the dialect modules (a runtime added to the registry shows here too). */
function definitionFiles(): string {
  const modules = [...dialectModules()].sort((a, b) => a.displayOrder - b.displayOrder);
  const width = modules.reduce((w, m) => Math.max(w, m.title.length), 0) + 2;
  const rows = modules.map(
    (m) =>
      `  ${m.title.padEnd(width)}${m.files.defaultGlobs.join(', ')}` +
      (m.files.globalFolder ? ' (and the global folder, for shadowing)' : ''),
  );
  return [
    'Definition files (by path, relative to the checked folder):',
    ...rows,
    `  ${CONFIG_FILE_NAME} (the project configuration) is checked too.`,
  ].join('\n');
}

/** "Polytoken, Profy and Picasso" */
function runtimeTitles(): string {
  const titles = dialectModules().map((m) => m.title);
  return titles.length > 1 ? `${titles.slice(0, -1).join(', ')} and ${titles[titles.length - 1]}` : titles.join('');
}

const EXIT = `Exit status: 0 no error (and warnings within --max-warnings), 1 errors or too many
warnings, 2 usage or I/O error, or a PATH without definition files (one line on stderr).`;

export const HELP = {
  get main(): string {
    return `subagents: checks ${runtimeTitles()} subagent definition files.

Usage:
  subagents check [PATH...] [options]
  subagents resolve FILE [--format text|json] [--config FILE] [--no-global]
  subagents rules [--format text|json|markdown]
  subagents diff [BASE [HEAD]] [--format text|markdown|json] [--fail-on-grant] [PATH...]
  subagents init
  subagents new RUNTIME NAME [--dir FOLDER] [--expert FILE] [--description TEXT]
  subagents lsp --stdio
  subagents mcp
  subagents --help | --version

Commands:
  check     report every problem in the definitions under PATH (default: .)
  resolve   print the tool set each definition in FILE really gets
  rules     list every rule with its default severity, summary and docs page
  diff      compare the tool sets of every definition between two git revisions
  init      write a commented .subagents.yaml into the current folder
  new       create a definition that passes every rule, where its runtime looks for it
  lsp       start the language server on stdin/stdout
  mcp       start the MCP server on stdin/stdout (tools for agents: docs/mcp.md)

${definitionFiles()}

${EXIT}
Run \`subagents <command> --help\` for a command's options.
`;
  },
  check: `Usage: subagents check [PATH...] [options]
       subagents check --stdin --stdin-filename PATH [options]

Checks every definition file under each PATH and prints its diagnostics. A PATH is
a file, a folder (node_modules/ and .git/ are skipped) or a quoted glob the checker
expands itself ('agents/**/*.md'); default: the current folder. A PATH that holds
no definition file is an error (exit 2).

Options:
  -f, --format FORMAT       output format, in any case (default: stylish on a terminal,
                            else text)
                            stylish: grouped by file, line:col severity message rule,
                                    wrapped to the terminal; a summary with the count
                                    of problems and of those --fix would fix
                            text:   path:line:col severity message [rule], then a summary
                            json:   { files: [{ path, dialect, diagnostics }], summary }
                            sarif:  SARIF 2.1.0
                            github: GitHub Actions workflow commands (annotations)
  -o, --output-file FILE    write the report to FILE instead of standard output
  --quiet                   report errors only (warnings are neither shown nor counted)
  --max-warnings N          exit 1 when there are more than N warnings
                            (-1: no limit, the default)
  --config FILE             use this configuration for every file instead of the
                            nearest .subagents.yaml
  --no-global               do not read Polytoken's global folder
                            ($XDG_CONFIG_HOME/polytoken/subagents)
  --no-error-on-unmatched-pattern
                            a PATH without definition files is not an error
  --cache                   reuse the results of files unchanged since the last run
  --cache-location P        the cache file, or a folder for it (default: ./.subagentscache)
  --cache-strategy S        how an unchanged file is known: metadata (the default: by its
                            size, times and inode, without reading it) or content (read
                            and hashed every run: for CI, where a checkout gives every
                            file new times)
  --fix                     apply every safe fix (the preferred quick fix of each problem,
                            edits inside the file only, never a rename), repeatedly
                            until nothing changes, then report what is left;
                            .subagents.yaml files first, then the definitions
  --fix-dry-run             print those changes as a unified diff; write nothing
  --stdin                   check standard input instead of files...
  --stdin-filename PATH     ...as if it were PATH (dialect, configuration, report)
  -h, --help                show this help

Colour (text format, on a terminal only): NO_COLOR turns it off, FORCE_COLOR on.

${definitionFiles()}

${EXIT}
`,
  resolve: `Usage: subagents resolve FILE [options]

Prints the effective tool set of each definition in FILE: its status (loads,
rejected, dropped), granted tools (those the catalog does not know marked unknown),
undeferred tools, what was removed and why, dropped allowlist entries and
unexpanded shorthands.

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
  diff: `Usage: subagents diff [BASE [HEAD]] [options] [PATH...]
       subagents diff OLD NEW -- [PATH...]

Compares the resolution of every definition between two git revisions (default:
HEAD and the working tree) and lists definitions added and removed, status
changes, and the tools each definition gains (with the key or shorthand that
grants it) or loses. Unchanged definitions are left out. Leading arguments that
git knows as revisions are BASE and HEAD; the rest are PATHs (files or folders,
default: the current folder). Before \`--\`, BASE and HEAD may also be folders.

Options:
  --format text|markdown|json  output format (default: text); markdown is a
                               pull-request comment, a table per definition
  --fail-on-grant              exit 1 when a definition gains a tool or starts to load
  --config FILE                use this configuration on both sides
  --no-global                  do not read Polytoken's global folder
  -h, --help                   show this help

Exit status: 0 compared (1 with --fail-on-grant and a grant), 2 usage, git or I/O error.
`,
  init: `Usage: subagents init

Writes a commented .subagents.yaml into the current folder: every key (extra file
globs, ignored files, known tools and MCP servers, rule severities) commented out
with an example. Exit status: 0 written, 2 when the folder already has one.
`,
  new: `Usage: subagents new RUNTIME NAME [options]

Creates a new definition named NAME for RUNTIME (polytoken, picasso, profy) in the
folder the runtime reads, named as the runtime requires, that passes every rule.
It is checked before it is written: a NAME the runtime's rules refuse (or that
clashes with a definition there) is reported and nothing is written. An existing
file is never replaced.

Options:
  --dir FOLDER          the project folder (default: the current folder)
  --expert FILE         (Profy) add the subagent to this Expert's subagents
                        instead of creating NAME.expert.json
  --description TEXT    its description (default: a placeholder to fill in)
  --config FILE         use this configuration instead of the nearest .subagents.yaml
  --no-global           do not read Polytoken's global folder
  -h, --help            show this help

Exit status: 0 created, 2 usage error, a refused NAME, or a file that exists.
`,
  lsp: `Usage: subagents lsp --stdio

Starts the language server on stdin/stdout for any LSP editor.
`,
  mcp: `Usage: subagents mcp

Starts a Model Context Protocol server on stdin/stdout (--stdio is accepted and is
the only transport). Tools: check, resolve, list_definitions, explain_rule, fix;
resources: subagents://rules/<id> and subagents://runtimes/<runtime>; prompt:
new-subagent. The workspace is the client's file:// roots, else the current
folder; nothing outside it is read or written, and nothing is written without
\`write: true\`. The log goes to stderr. A client entry (.mcp.json):

  { "mcpServers": { "subagents": { "command": "npx", "args": ["subagents", "mcp"] } } }
`,
};

#!/usr/bin/env bash
# `subagents mcp` through an MCP client we did not write: the MCP Inspector's CLI mode
# (@modelcontextprotocol/inspector, a pinned devDependency, on the SDK's 2.x client), offline:
# in a network namespace of its own when `unshare -n` is allowed. Needs dist/ (npm run build).
# Prints what the client reported and fails on any difference from what is expected.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
inspector="$repo/node_modules/.bin/inspector"
[ -x "$inspector" ] || { echo "external.sh: $inspector is missing (npm ci)" >&2; exit 1; }
[ -f dist/cli.js ] || { echo "external.sh: dist/cli.js is missing (npm run build)" >&2; exit 1; }

ws=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$ws" "$out"' EXIT
mkdir -p "$ws/.polytoken/subagents" "$ws/xdg"
printf -- '---\nname: reviewer\ndescription: Reviews a change.\npolytoken:\n  tools: [file_read, grep]\n---\nReview {{ prompt }}.\n' \
  > "$ws/.polytoken/subagents/reviewer.md"

offline=()
if unshare -n true 2>/dev/null; then offline=(unshare -n); fi
echo "external MCP client: inspector $(node -p 'require("@modelcontextprotocol/inspector/package.json").version'), ${offline[*]:-with the network (unshare -n is not allowed here)}"

# One inspector call against a fresh server in the workspace; its JSON answer in $out/$1.json.
# The inspector exits 5 on a tool error (isError): `inspect_error` expects that.
inspect() {
  local name=$1 status=0
  shift
  XDG_CONFIG_HOME="$ws/xdg" HOME="$ws" "${offline[@]}" "$inspector" --cli --cwd "$ws" \
    node "$repo/dist/cli.js" mcp "$@" > "$out/$name.json" 2> "$out/$name.err" || status=$?
  if [ "$status" -ne "${expected_status:-0}" ]; then
    echo "external.sh: the inspector exited $status on $name:" >&2
    cat "$out/$name.err" "$out/$name.json" >&2
    exit 1
  fi
}
inspect_error() { expected_status=5 inspect "$@"; }

unsaved='---\nname: reviewr\ndescription: Reviews.\npolytoken:\n  tools: [file_read, exit_tool]\n---\nhi\n'
inspect tools --method tools/list
inspect list --method tools/call --tool-name list_definitions
inspect check --method tools/call --tool-name check \
  --tool-arg "files=[{\"path\":\".polytoken/subagents/new.md\",\"text\":\"$unsaved\"}]"
inspect fix --method tools/call --tool-name fix --tool-arg path=.polytoken/subagents/new.md \
  --tool-arg "text=$(printf -- "$unsaved")" --tool-arg write=true
inspect recheck --method tools/call --tool-name check --tool-arg 'paths=[".polytoken/subagents/new.md"]'
inspect_error outside --method tools/call --tool-name resolve --tool-arg path=../elsewhere.md
inspect resource --method resources/read --uri subagents://rules/polytoken/exit-tool-listed
inspect prompt --method prompts/get --prompt-name new-subagent --prompt-args runtime=picasso name=runner purpose=Runs.

OUT="$out" node - <<'EOF'
const fs = require('fs');
const read = (name) => JSON.parse(fs.readFileSync(`${process.env.OUT}/${name}.json`, 'utf8'));
const fail = (message) => {
  console.error(`external.sh: ${message}`);
  process.exit(1);
};
const expect = (ok, message) => ok || fail(message);

const tools = read('tools').tools.map((t) => t.name).sort();
expect(JSON.stringify(tools) === JSON.stringify(['check', 'explain_rule', 'fix', 'list_definitions', 'resolve']), `tools: ${tools}`);
console.log(`tools/list: ${tools.join(', ')}`);

const list = read('list').structuredContent;
expect(list.definitions.length === 1 && list.definitions[0].status === 'loads', `list: ${JSON.stringify(list)}`);
console.log(`list_definitions: ${list.definitions.map((d) => `${d.name} ${d.status}`).join(', ')}`);

const check = read('check').structuredContent;
const rules = check.files[0].diagnostics.map((d) => d.rule).sort();
expect(JSON.stringify(rules) === '["polytoken/exit-tool-listed","polytoken/name-mismatch"]', `check: ${JSON.stringify(check)}`);
console.log(`check (unsaved): ${JSON.stringify(check.summary)} ${rules.join(', ')}`);

const fix = read('fix').structuredContent;
expect(fix.written === true && fix.applied.length === 2 && fix.remaining.summary.errors === 0, `fix: ${JSON.stringify(fix)}`);
console.log(`fix (write: true): applied ${fix.applied.join(', ')}; written ${fix.written}`);

const recheck = read('recheck').structuredContent;
expect(recheck.summary.files === 1 && recheck.summary.errors === 0 && recheck.summary.warnings === 0, `recheck: ${JSON.stringify(recheck)}`);
console.log(`check (saved): ${JSON.stringify(recheck.summary)}`);

const outside = read('outside');
expect(outside.isError === true && /outside the workspace/.test(outside.content[0].text), `outside: ${JSON.stringify(outside)}`);
console.log(`resolve outside the workspace: isError, "${outside.content[0].text.slice(0, 60)}…"`);

const page = read('resource').contents[0];
expect(page.mimeType === 'text/markdown' && page.text.startsWith('# polytoken/exit-tool-listed'), `resource: ${JSON.stringify(page).slice(0, 300)}`);
console.log(`resources/read: ${page.text.split('\n')[0]}`);

const prompt = read('prompt').messages[0].content.text;
expect(/saved at `\.picasso\/agents\/runner\.md`/.test(prompt), `prompt: ${prompt}`);
console.log(`prompts/get new-subagent: ${prompt.split('\n')[0]}`);
console.log('external MCP client: 8 calls, all as expected');
EOF

#!/usr/bin/env bash
# npm run test:e2e: the Neovim test (test/e2e/nvim, alone: `npm run test:nvim`), then the
# integration suite in a real VS Code (code-server 4.100.3, VS Code 1.100.3) driven by headless
# Chromium. Provisions what it needs (idempotent, cached in ${XDG_CACHE_HOME:-$HOME/.cache}/subagents-e2e),
# builds and packages the extension, installs the .vsix into a fresh extensions dir, runs the
# suite and takes screenshots into test-results/; then the web run (driver.mjs --web) into test-results/web/.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The Neovim part first: it takes seconds, and its result is reported even when VS Code fails.
echo "[e2e] Neovim"
nvim_status=0
bash test/e2e/nvim/run.sh || nvim_status=$?

CACHE="$(bash test/e2e/setup.sh | tail -n 1)"

echo "[e2e] building the extension package"
npx tsc -p test/e2e/tsconfig.json || echo "[e2e] tsc reported errors (above); the suite runs with what it emitted"
npm run --silent package >/dev/null
ls -l subagents-tooling.vsix | awk '{ printf "[e2e] subagents-tooling.vsix: %d bytes\n", $5 }'

vscode_status=0
node test/e2e/driver.mjs --code-server "$CACHE/node_modules/code-server" --vsix subagents-tooling.vsix --out test-results "$@" || vscode_status=$?

# The same package as VS Code for the web runs it: its web build in the Web Worker extension host,
# on a workspace on no disk (memfs:/ws), screenshots into test-results/web/.
echo "[e2e] VS Code for the web"
web_status=0
node test/e2e/driver.mjs --web --code-server "$CACHE/node_modules/code-server" --vsix subagents-tooling.vsix --out test-results/web "$@" || web_status=$?

[ "$nvim_status" = 0 ] || echo "[e2e] the Neovim part failed (exit $nvim_status)"
[ "$vscode_status" = 0 ] || echo "[e2e] the VS Code part failed (exit $vscode_status)"
[ "$web_status" = 0 ] || echo "[e2e] the VS Code for the web part failed (exit $web_status)"
[ "$nvim_status" = 0 ] && [ "$vscode_status" = 0 ] && [ "$web_status" = 0 ]

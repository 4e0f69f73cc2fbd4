#!/usr/bin/env bash
# npm run test:nvim: drives a real headless Neovim (built-in LSP client) against the language
# server (`node dist/cli.js lsp --stdio`). Also part of `npm run test:e2e`.
set -euo pipefail
cd "$(dirname "$0")/../../.."

NVIM="$(bash test/e2e/nvim/setup.sh | tail -n 1)"
[ "${SUBAGENTS_SKIP_BUILD:-}" = 1 ] || npm run --silent build
node --test-reporter=spec test/e2e/nvim/driver.mjs --nvim "$NVIM" "$@"

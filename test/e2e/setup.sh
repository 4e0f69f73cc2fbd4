#!/usr/bin/env bash
# Provisions what the end-to-end suite needs: Debian packages and code-server@4.100.3
# (VS Code 1.100.3's own server and extension host). Idempotent: a finished install
# is marked with a stamp file and reused.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
CACHE="${SUBAGENTS_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/subagents-e2e}"
STAMP="$CACHE/.provisioned-$CODE_SERVER_VERSION"
log() { echo "[e2e-setup] $*" >&2; }

need_pkgs=()
for p in libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config ripgrep chromium; do
  dpkg -s "$p" >/dev/null 2>&1 || need_pkgs+=("$p")
done
if [ "${#need_pkgs[@]}" -gt 0 ]; then
  log "installing Debian packages: ${need_pkgs[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null
fi

if [ -f "$STAMP" ]; then
  log "code-server $CODE_SERVER_VERSION ready in $CACHE"
  echo "$CACHE"
  exit 0
fi

log "installing code-server@$CODE_SERVER_VERSION into $CACHE (first run only)"
mkdir -p "$CACHE"
[ -f "$CACHE/package.json" ] || echo '{"name":"subagents-e2e-cache","private":true}' > "$CACHE/package.json"
npm install --prefix "$CACHE" --ignore-scripts --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION"

VS="$CACHE/node_modules/code-server/lib/vscode"
(
  cd "$VS"
  npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
  npm_config_yes=true npm rebuild @parcel/watcher @vscode/spdlog kerberos native-watchdog node-pty @vscode/deviceid --loglevel=error
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
  ln -sfn node_modules node_modules.asar
  (cd extensions && npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error)
)
(cd "$CACHE" && npm rebuild argon2 --prefix "$CACHE" --loglevel=error)

touch "$STAMP"
log "code-server ready in $CACHE"
echo "$CACHE"

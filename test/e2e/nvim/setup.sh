#!/usr/bin/env bash
# Provisions Neovim for the Neovim integration test (Debian's package: Neovim 0.7.2 on bookworm).
# Idempotent: does nothing when nvim is already installed. Prints nvim's path.
set -euo pipefail
log() { echo "[nvim-setup] $*" >&2; }

if ! command -v nvim >/dev/null 2>&1; then
  log "installing the Debian package neovim"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends neovim >/dev/null
fi
log "$(nvim --version | head -n 1)"
command -v nvim

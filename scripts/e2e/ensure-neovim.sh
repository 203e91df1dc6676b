#!/bin/sh
# Makes sure `nvim` (a real third-party LSP client) is available for the end-to-end test.
# Installs Debian's `neovim` package only when `nvim` is missing.
#
# Exit codes:
#   0  nvim is available (prints its path on stdout)
#   3  nvim is missing and this user cannot install it (not root): the test skips
#   4  nvim is missing and apt-get is not available: the test skips
#   other: the install failed (the test fails: on CI it must work)
set -eu

if command -v nvim >/dev/null 2>&1; then
  command -v nvim
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-neovim: nvim is not installed and installing it needs root (apt-get install neovim)" >&2
  exit 3
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-neovim: nvim is not installed and apt-get is not available" >&2
  exit 4
fi

export DEBIAN_FRONTEND=noninteractive
# Progress goes to stderr so stdout carries only the path.
apt-get update >&2
apt-get install -y --no-install-recommends neovim >&2

command -v nvim

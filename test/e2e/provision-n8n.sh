#!/usr/bin/env bash
# Provisions Node 24 (the npm package node-<os>-<arch>, see env.sh) and n8n into a cache folder
# outside the clone. Idempotent: a warm cache returns at once. Only the npm registry is used.
# Works from any npm context: `npm test` and `npm run demo` export the repo's .npmrc
# (ignore-scripts=true) as npm_config_ignore_scripts, which would turn the native rebuild below into
# a silent no-op; it is cleared here, and the native modules are loaded before the cache is marked
# as provisioned, so a broken build fails loudly with the reason.
set -euo pipefail
unset npm_config_ignore_scripts NPM_CONFIG_IGNORE_SCRIPTS
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
# One provisioning at a time per n8n release (e.g. the e2e run and the demo started together), and one
# of Node 24 per cache: two releases in one cache (test/run-all.sh provisions the compat release in the
# background while the e2e run provisions its own) install side by side.
if command -v flock >/dev/null; then
  exec 9>"$CV_N8N_DIR/.provision.lock"
  flock 9
  provisioned && exit 0
fi
(
  command -v flock >/dev/null && { exec 8>"$CV_E2E_CACHE/node24/.provision.lock" && flock 8; }
  if [ ! -x "$CV_NODE24_DIR/bin/node" ]; then
    cd "$CV_E2E_CACHE/node24"
    echo '{"name":"node24","private":true}' > package.json
    spec=$CV_NODE24_PACKAGE@$CV_NODE24_VERSION
    npm view "$spec" version >/dev/null 2>&1 || spec=$CV_NODE24_PACKAGE@24
    echo "installing $spec"
    npm install --no-audit --no-fund --ignore-scripts --loglevel=error "$spec"
  fi
)
export PATH=$CV_NODE24_DIR/bin:$PATH
# The machine's npm config points node-gyp at Node 20 headers; native modules must build for Node 24.
export npm_config_nodedir=$CV_NODE24_DIR
cd "$CV_N8N_DIR"
# linkedom 0.18.15 needs a package the registry lacks; scripts off because one optional dependency
# downloads a prebuilt binary at install time.
# The default release: test/e2e/n8n/package-lock.json pins the whole tree (npm ci rejects it, npm
# install keeps it). Another release (scripts/compat-e2e.sh) takes test/e2e/n8n/<version>.package-lock.json
# when there is one, else the tree npm resolves. n8n 1.x and 2.0 take xlsx from its vendor's own site
# (n8n-nodes-base depends on https://cdn.sheetjs.com/xlsx-0.20.2/…), which is not reachable: the same
# version from the npm registry (an override of a package the tree lacks is ignored).
overrides='"linkedom": "0.18.14"'
lock=$HERE/n8n/package-lock.json
if [ "$CV_N8N_VERSION" != "$(node -p 'require(process.argv[1]).packages[""].dependencies.n8n' "$lock")" ]; then
  overrides="$overrides, \"xlsx\": \"npm:@e965/xlsx@0.20.2\""
  lock=$HERE/n8n/$CV_N8N_VERSION.package-lock.json
fi
cat > package.json <<JSON
{ "name": "cv-e2e-n8n", "private": true,
  "dependencies": { "n8n": "$CV_N8N_VERSION" },
  "overrides": { $overrides } }
JSON
rm -f package-lock.json
if [ -f "$lock" ]; then cp "$lock" package-lock.json; else echo "no lock for n8n $CV_N8N_VERSION: npm resolves its tree"; fi
npm install --no-audit --no-fund --ignore-scripts --loglevel=error
# The native modules this release has (isolated-vm came with n8n 2.x's expression runtime).
natives=()
for module in sqlite3 isolated-vm; do
  [ -d "node_modules/$module" ] && natives+=("$module")
done
npm rebuild "${natives[@]}" --ignore-scripts=false --loglevel=error
for module in "${natives[@]}"; do
  if ! node -e 'require(process.argv[1])' "$module" 2>"$CV_E2E_CACHE/native-$module.err"; then
    echo "FAILED: the native module $module does not load on Node $(node -v) after npm rebuild:" >&2
    cat "$CV_E2E_CACHE/native-$module.err" >&2
    echo "(a C++ toolchain, python3 and make are needed to build it; the cache is left unmarked)" >&2
    exit 1
  fi
done
touch "$marker"
echo "n8n $CV_N8N_VERSION provisioned on Node $(node -v) in $((SECONDS-t0))s"

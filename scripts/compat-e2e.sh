#!/usr/bin/env bash
# Runs the end-to-end suite (test/e2e/run.sh, unchanged) against another n8n release than the one
# the test command pins. Usage: bash scripts/compat-e2e.sh <n8n version>   e.g. 2.0.0
#
# That release gets its own cache (CV_E2E_CACHE, default ~/.cache/cv-compat-<version>), never the
# default one, and is installed without the pinned lock of test/e2e/n8n/package-lock.json (that
# lock belongs to the default version). The install is marked as provisioned here, so run.sh's
# provisioning step reuses it. Output and logs: .e2e/compat-<version>/.
set -euo pipefail
unset npm_config_ignore_scripts NPM_CONFIG_IGNORE_SCRIPTS
version=${1:?usage: compat-e2e.sh <n8n version>}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
default_cache=$HOME/.cache/n8n-nodes-candidate-verification
export CV_N8N_VERSION=$version
export CV_E2E_CACHE=${CV_E2E_CACHE:-$HOME/.cache/cv-compat-$version}
if [ "$(realpath -m "$CV_E2E_CACHE")" = "$(realpath -m "$default_cache")" ]; then
  echo "refusing to use the default e2e cache for a compatibility run: $CV_E2E_CACHE" >&2
  exit 2
fi
source "$ROOT/test/e2e/env.sh"
export CV_E2E_RUN_DIR=${CV_E2E_RUN_DIR:-$ROOT/.e2e/compat-$version}

if [ ! -f "$CV_N8N_DIR/.provisioned" ]; then
  mkdir -p "$CV_E2E_CACHE/node24" "$CV_N8N_DIR"
  if [ ! -x "$CV_NODE24_DIR/bin/node" ]; then
    echo '{"name":"node24","private":true}' >"$CV_E2E_CACHE/node24/package.json"
    npm install --prefix "$CV_E2E_CACHE/node24" --no-audit --no-fund --ignore-scripts \
      --loglevel=error "$CV_NODE24_PACKAGE@$CV_NODE24_VERSION"
  fi
  # No lock: npm resolves the tree this release declares. Overrides: linkedom 0.18.15 needs a
  # package the registry lacks (as in the default provisioning); early 2.x releases take xlsx from
  # its vendor's own site, which is not reachable here: the same version from the npm registry.
  printf '{ "name": "cv-compat-n8n", "private": true, "dependencies": { "n8n": "%s" },\n  "overrides": { "linkedom": "0.18.14", "xlsx": "npm:@e965/xlsx@0.20.2" } }\n' \
    "$version" >"$CV_N8N_DIR/package.json"
  rm -f "$CV_N8N_DIR/package-lock.json"
  natives=()
  (
    export PATH=$CV_NODE24_DIR/bin:$PATH npm_config_nodedir=$CV_NODE24_DIR
    cd "$CV_N8N_DIR"
    npm install --no-audit --no-fund --ignore-scripts --loglevel=error
    # Native modules this release actually has (isolated-vm arrived with n8n's expression runtime).
    for module in sqlite3 isolated-vm; do
      [ -d "node_modules/$module" ] && natives+=("$module")
    done
    npm rebuild "${natives[@]}" --ignore-scripts=false --loglevel=error
    for module in "${natives[@]}"; do node -e 'require(process.argv[1])' "$module"; done
  )
  touch "$CV_N8N_DIR/.provisioned"
fi

bash "$ROOT/test/e2e/run.sh"

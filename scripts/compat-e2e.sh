#!/usr/bin/env bash
# The compat scope of the end-to-end suite (test/e2e/run.sh with CV_E2E_SCOPE=compat) against another
# n8n release than the one the test command pins:
#   bash scripts/compat-e2e.sh <n8n version>      e.g. 1.123.81, 2.0.3, or 2.0.x (the newest 2.0 patch)
#   npm run test:compat -- 2.0.x
# What it proves there: every operation of examples/candidates-to-reports.json, a downloaded file's
# SHA-256, errors that name the operation on a connection reset and on a hung service, one invalid
# item stopping a node before anything is sent, and the trigger (registration on activation, a
# notification delivered, 401 on a forgery). Not run: the editor in Chromium, the AI Agent, the
# trigger's re-activation and de-duplication (test/e2e/run.sh on the pinned release has them).
#
# Provisioning (test/e2e/provision-n8n.sh) puts the release in its own folder n8n-<version> of
# CV_E2E_CACHE, default ~/.cache/cv-compat-<version> (never the default e2e cache); .ci/run's cold
# path sets CV_E2E_CACHE to a throw-away folder, so there it is provisioned cold too. The release's
# tree is pinned by test/e2e/n8n/<version>.package-lock.json when there is one.
# Output: ok/FAIL lines, then "N passed, N failed"; logs in .e2e/compat-<version>/.
# `compat-e2e.sh --provision-only <version>` provisions that release into the same cache and stops
# (test/run-all.sh runs it in the background while the other suites run).
set -euo pipefail
unset npm_config_ignore_scripts NPM_CONFIG_IGNORE_SCRIPTS
provision_only=false
[ "${1:-}" = --provision-only ] && { provision_only=true; shift; }
version=${1:?usage: compat-e2e.sh [--provision-only] <n8n version, e.g. 1.123.81 or 2.0.x>}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [[ $version == *.x ]]; then
	# The newest published patch of that minor line (one registry look-up).
	prefix=${version%x}
	version=$(npm view n8n versions --json | node -e '
		const prefix = process.argv[1];
		const all = JSON.parse(require("fs").readFileSync(0, "utf8")).filter((v) => v.startsWith(prefix) && /^\d+\.\d+\.\d+$/.test(v));
		all.sort((a, b) => Number(a.split(".")[2]) - Number(b.split(".")[2]));
		if (!all.length) process.exit(1);
		console.log(all.at(-1));' "$prefix") || { echo "no published n8n $prefix*" >&2; exit 2; }
	echo "# n8n ${prefix}x is $version"
fi
default_cache=$HOME/.cache/n8n-nodes-candidate-verification
export CV_N8N_VERSION=$version CV_E2E_SCOPE=${CV_E2E_SCOPE:-compat}
export CV_E2E_CACHE=${CV_E2E_CACHE:-$HOME/.cache/cv-compat-$version}
if [ "$(realpath -m "$CV_E2E_CACHE")" = "$(realpath -m "$default_cache")" ]; then
	echo "refusing to use the default e2e cache for a compatibility run: $CV_E2E_CACHE" >&2
	exit 2
fi
"$provision_only" && exec bash "$ROOT/test/e2e/provision-n8n.sh"
export CV_E2E_RUN_DIR=${CV_E2E_RUN_DIR:-$ROOT/.e2e/compat-$version}
exec bash "$ROOT/test/e2e/run.sh"

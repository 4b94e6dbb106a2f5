#!/usr/bin/env bash
# The version 2 Submit panel as a given n8n release's editor shows it, for a built package:
#   bash scripts/editor-submit-panels.sh <n8n version> <package root> <out dir>
# e.g. bash scripts/editor-submit-panels.sh 1.123.81 . /tmp/panels-now
# <package root> is a checkout whose dist/ is built (`npm run build` there); it is packed and installed
# into a throw-away n8n user folder as test/e2e/lib.sh does for the e2e runs. The release is provisioned
# as scripts/compat-e2e.sh does (its own cache ~/.cache/cv-compat-<version>, CV_E2E_CACHE overrides).
# n8n starts on 127.0.0.1 with a workflow of Candidate Verification nodes at version 2, Verification →
# Submit, one per check (scripts/editor-submit-panels.js lists them); Chromium (CV_CHROMIUM, default
# /usr/bin/chromium) opens each node and reads the panel's fields, in order, from the DOM:
# <out dir>/panels.json, and one screenshot per node (<out dir>/<check>.png). Stops everything on exit.
# Compare two runs with `node scripts/editor-submit-panels.js --compare <dir a> <dir b>`.
set -uo pipefail
version=${1:?usage: editor-submit-panels.sh <n8n version> <package root> <out dir>}
PACKAGE_ROOT=$(cd "${2:?package root}" && pwd)
OUT=$(mkdir -p "${3:?out dir}" && cd "$3" && pwd)
export CV_N8N_VERSION=$version
export CV_E2E_CACHE=${CV_E2E_CACHE:-$HOME/.cache/cv-compat-$version}
source "$(cd "$(dirname "$0")/.." && pwd)/test/e2e/lib.sh"

RUN=$OUT/run
rm -rf "$RUN" && mkdir -p "$RUN"
say() { printf '==> %s\n' "$*"; }
fail() { echo "editor-submit-panels: $* (logs in $RUN)" >&2; exit 1; }
[ -f "$PACKAGE_ROOT/dist/nodes/CandidateVerification/CandidateVerification.node.js" ] ||
	fail "$PACKAGE_ROOT has no built dist/ (npm run build there)"

CV_N8N_PID=''
cleanup() {
	trap '' INT TERM
	cv_stop "$CV_N8N_PID" 20
	rm -f "$RUN/credentials.json"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

CHROMIUM=$(bash "$CV_E2E_HOME/ensure-chromium.sh" "$RUN/chromium-install.log") || fail "$CHROMIUM"
say "provisioning n8n $CV_N8N_VERSION (cached in $CV_E2E_CACHE)"
bash "$CV_E2E_HOME/provision-n8n.sh" >"$RUN/provision.log" 2>&1 || fail "provisioning failed"

read -r N8N_PORT BROKER_PORT <<<"$(cv_free_ports 2 | tr '\n' ' ')"
cv_n8n_env "$RUN/n8n-home" "$N8N_PORT" "$BROKER_PORT"
mkdir -p "$N8N_USER_FOLDER"
say "installing the package from $PACKAGE_ROOT"
CV_ROOT=$PACKAGE_ROOT cv_install_package "$N8N_USER_FOLDER" >"$RUN/install.log" 2>&1 ||
	fail "package install failed"

say "importing a credential (nothing is sent) and the Submit workflow"
cv_write_credentials "$RUN/credentials.json" http://127.0.0.1:9 not-a-key panels-org
cv_n8n import:credentials --input="$RUN/credentials.json" >"$RUN/import.log" 2>&1 || fail "import:credentials failed"
rm -f "$RUN/credentials.json"
node "$CV_ROOT/scripts/editor-submit-panels.js" --workflow >"$RUN/workflow.json" || fail "no workflow"
cv_add_version_ids "$RUN/workflow.json"
cv_n8n import:workflow --input="$RUN/workflow.json" >>"$RUN/import.log" 2>&1 || fail "import:workflow failed"

say "starting n8n $CV_N8N_VERSION on http://127.0.0.1:$N8N_PORT"
cv_start_n8n "$RUN/n8n.log" || fail "n8n did not start"
cv_watchdog $$ "$CV_N8N_PID"

say "reading the panels in Chromium"
CV_N8N_URL=http://127.0.0.1:$N8N_PORT CV_CHROMIUM=$CHROMIUM CV_PANELS_DIR=$OUT \
	node "$CV_ROOT/scripts/editor-submit-panels.js" --read

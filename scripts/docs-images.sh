#!/usr/bin/env bash
# `npm run docs:images`: the README's pictures (docs/images/*.png), taken from the real editor.
# The e2e set-up, without its checks: provisions n8n 2.41.1 if needed (cached), builds the package,
# installs it like a community package into a throw-away user folder (.e2e/docs-images/), starts the
# sandbox and n8n on 127.0.0.1, imports the credential and the examples, runs the examples
# (test/e2e/examples-check.js, so there are executions to show), then test/e2e/docs-images.js takes
# the screenshots in Chromium (light theme, cropped, each under 200 KB). Stops everything on exit.
#
# Environment: CV_DOCS_IMAGES_DIR (default docs/images), CV_DOCS_KEEP=1 (keep n8n running after the
# pictures, for working on docs-images.js; Ctrl-C stops it).
set -uo pipefail
source "$(cd "$(dirname "$0")/.." && pwd)/test/e2e/lib.sh"

RUN=$CV_ROOT/.e2e/docs-images
OUT=${CV_DOCS_IMAGES_DIR:-$CV_ROOT/docs/images}
rm -rf "$RUN" && mkdir -p "$RUN"
say() { printf '==> %s\n' "$*"; }
fail() { echo "docs:images: $* (logs in $RUN)" >&2; exit 1; }

CV_SANDBOX_PID='' CV_N8N_PID=''
cleanup() {
	trap '' INT TERM
	cv_stop "$CV_N8N_PID" 20
	cv_stop "$CV_SANDBOX_PID" 5
	rm -f "$RUN/credentials.json"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

CHROMIUM=$(bash "$CV_E2E_HOME/ensure-chromium.sh" "$RUN/chromium-install.log") || fail "$CHROMIUM"
say "provisioning n8n $CV_N8N_VERSION (cached in $CV_E2E_CACHE)"
bash "$CV_E2E_HOME/provision-n8n.sh" >"$RUN/provision.log" 2>&1 || fail "provisioning failed"
say "building the package"
(cd "$CV_ROOT" && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build) >"$RUN/build.log" 2>&1 ||
	fail "build failed"

read -r N8N_PORT BROKER_PORT SANDBOX_PORT SMTP_PORT <<<"$(cv_free_ports 4 | tr '\n' ' ')"
cv_n8n_env "$RUN/n8n-home" "$N8N_PORT" "$BROKER_PORT"
mkdir -p "$N8N_USER_FOLDER"
cv_install_package "$N8N_USER_FOLDER" >"$RUN/install.log" 2>&1 || fail "package install failed"

SANDBOX_API_KEY="docs-$(node -p 'require("crypto").randomBytes(16).toString("hex")')"
SANDBOX_ORG_ID=docs-org
export SANDBOX_API_KEY SANDBOX_ORG_ID
SANDBOX_URL=http://127.0.0.1:$SANDBOX_PORT
cv_start_sandbox "$RUN/sandbox.log" "$SANDBOX_PORT" || fail "the sandbox did not start"
cv_watchdog $$ "$CV_SANDBOX_PID"

say "importing the credential and the examples"
cv_write_credentials "$RUN/credentials.json" "$SANDBOX_URL" "$SANDBOX_API_KEY" "$SANDBOX_ORG_ID"
cv_n8n import:credentials --input="$RUN/credentials.json" >"$RUN/import.log" 2>&1 || fail "import:credentials failed"
rm -f "$RUN/credentials.json"
cv_n8n import:workflow --separate --input="$CV_ROOT/examples" >>"$RUN/import.log" 2>&1 || fail "import:workflow failed"

say "starting n8n on http://127.0.0.1:$N8N_PORT"
cv_start_n8n "$RUN/n8n.log" || fail "n8n did not start"
cv_watchdog $$ "$CV_N8N_PID"

export CV_N8N_URL=http://127.0.0.1:$N8N_PORT CV_SANDBOX_URL=$SANDBOX_URL CV_SMTP_PORT=$SMTP_PORT
say "running the examples (executions to show)"
node "$CV_E2E_HOME/examples-check.js" | tee "$RUN/examples.out"
say "taking the pictures into ${OUT#"$CV_ROOT"/}"
CV_CHROMIUM=$CHROMIUM CV_DOCS_IMAGES_DIR=$OUT node "$CV_E2E_HOME/docs-images.js" | tee "$RUN/docs-images.out"
rc=${PIPESTATUS[0]}
if [ "${CV_DOCS_KEEP:-0}" = 1 ]; then
	say "n8n stays up on $CV_N8N_URL (owner e2e@example.com / E2e-Passw0rd-cv); Ctrl-C stops it"
	while :; do sleep 3600 & wait $!; done
fi
exit "$rc"

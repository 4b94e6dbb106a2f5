#!/usr/bin/env bash
# Makes Debian's Chromium available for the browser tests (test/e2e/browser.js): installs the
# `chromium` package with apt-get where it can (root on Debian, as on CI). Prints the browser's
# path on success; otherwise prints why not on stdout and exits 1 (the tests are then skipped).
# Usage: bash test/e2e/ensure-chromium.sh [LOG]
set -uo pipefail
CHROMIUM=${CV_CHROMIUM:-/usr/bin/chromium}
LOG=${1:-/dev/null}
if [ -x "$CHROMIUM" ]; then echo "$CHROMIUM"; exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "no Chromium at $CHROMIUM and not root, so it cannot be installed (apt-get install chromium)"; exit 1; fi
if ! command -v apt-get >/dev/null; then echo "no Chromium at $CHROMIUM and no apt-get to install it"; exit 1; fi
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; } >"$LOG" 2>&1; then
	echo "apt-get install chromium failed (see $LOG)"
	exit 1
fi
[ -x "$CHROMIUM" ] || { echo "apt-get installed chromium but $CHROMIUM is missing"; exit 1; }
echo "$CHROMIUM"

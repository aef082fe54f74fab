#!/usr/bin/env bash
# Installs the browser the HTML report's tests drive (test/report-browser.test.ts, through playwright-core):
# Debian's chromium-headless-shell (bookworm main and bookworm-security), else Debian's chromium. Never a
# browser build downloaded by playwright. One command, on a Debian or Ubuntu machine (as root, or with sudo):
#
#   bash scripts/install-browser.sh
#
# Order: a browser already there (LOOPWATCH_CHROMIUM, then Debian's paths); else apt-get install (without
# the recommended desktop extras; a DejaVu font for the screenshots' text). Prints the binary's path and
# version on the last line; exits non-zero when nothing could be installed (.ci/run then fails: the browser
# tests must run in CI, not skip).
set -euo pipefail

found() {
  for c in "${LOOPWATCH_CHROMIUM:-}" /usr/lib/chromium/chromium-headless-shell /usr/bin/chromium-headless-shell /usr/lib/chromium/chromium /usr/bin/chromium; do
    if [ -n "$c" ] && [ -x "$c" ] && v=$("$c" --headless --no-sandbox --version 2>/dev/null); then echo "$v: $c"; return 0; fi
  done
  return 1
}

if found; then exit 0; fi

command -v apt-get >/dev/null || { echo "install-browser: no apt-get here; install Chromium and set LOOPWATCH_CHROMIUM to its binary" >&2; exit 1; }
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-browser: apt-get needs root (or sudo)" >&2; exit 1; }
  SUDO=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq >/dev/null
for pkg in chromium-headless-shell chromium; do
  if "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "$pkg" fonts-dejavu-core >/dev/null; then
    if found; then exit 0; fi
  fi
  echo "install-browser: $pkg did not install a browser that runs here" >&2
done
echo "install-browser: could not install Chromium" >&2
exit 1

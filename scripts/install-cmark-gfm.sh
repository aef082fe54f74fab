#!/usr/bin/env bash
# Installs cmark-gfm, GitHub's Markdown renderer, with which test/report-markdown-safety.test.ts renders
# `scan --markdown` (no links, one row per session). Debian's package; the test skips its rendering check,
# saying so, without it. Prints the version on the last line.
set -euo pipefail
if ! command -v cmark-gfm >/dev/null; then
  command -v apt-get >/dev/null || { echo "install-cmark-gfm: no apt-get here; install cmark-gfm by hand" >&2; exit 1; }
  SUDO=()
  if [ "$(id -u)" -ne 0 ]; then SUDO=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq >/dev/null
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends cmark-gfm >/dev/null
fi
cmark-gfm --version | head -1

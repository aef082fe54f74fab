#!/usr/bin/env bash
# Installs a nats-server >= 2.10 (JetStream with stream subject transforms) into .tools/nats-server/, for
# `loopwatch serve --nats` tests and benchmarks. One command, on a fresh Debian or Ubuntu machine:
#
#   bash scripts/install-nats-server.sh
#
# Order: a nats-server already there (LOOPWATCH_NATS_SERVER, .tools/, PATH) of version 2.10 or newer;
# else Debian trixie's package (2.10.x; Debian stable), else sid's (newest), fetched with apt-get into a
# private list and cache (the machine's apt sources and installed packages are not touched) and unpacked
# with dpkg -x (the binary is static Go, so it runs on bookworm). Bookworm's own package (2.9.10) is too
# old: it has no stream subject transforms. Prints the binary's path and version on the last line; exits
# non-zero (and the NATS tests skip, saying why) when nothing could be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
DEST=.tools/nats-server
BIN="$DEST/nats-server"

good() { # prints the version when $1 runs and is >= 2.10
  local v
  v=$("$1" --version 2>/dev/null | sed -n 's/^nats-server: v\([0-9][0-9.]*\).*/\1/p') || return 1
  [ -n "$v" ] || return 1
  local major minor
  major=${v%%.*}; minor=${v#*.}; minor=${minor%%.*}
  if [ "$major" -gt 2 ] || { [ "$major" -eq 2 ] && [ "$minor" -ge 10 ]; }; then echo "$v"; else return 1; fi
}

for c in "${LOOPWATCH_NATS_SERVER:-}" "$BIN" "$(command -v nats-server || true)"; do
  if [ -n "$c" ] && [ -x "$c" ] && v=$(good "$c"); then echo "nats-server $v: $c"; exit 0; fi
done

command -v apt-get >/dev/null || { echo "install-nats-server: no apt-get here; put a nats-server >= 2.10 on PATH or in LOOPWATCH_NATS_SERVER" >&2; exit 1; }
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$KEYRING" ] || { echo "install-nats-server: no Debian archive keyring at $KEYRING (apt-get install debian-archive-keyring)" >&2; exit 1; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/lists/partial" "$WORK/cache/archives/partial" "$DEST"
APT=(-o "Dir::Etc::SourceList=$WORK/sources.list" -o Dir::Etc::SourceParts=/dev/null -o "Dir::State::Lists=$WORK/lists"
  -o "Dir::Cache=$WORK/cache" -o Dir::State::Status=/dev/null -o APT::Sandbox::User=root -o Debug::NoLocking=1)

for suite in trixie sid; do
  echo "deb [signed-by=$KEYRING] http://deb.debian.org/debian $suite main" > "$WORK/sources.list"
  rm -rf "$WORK/lists"/*Packages* "$WORK/x" "$WORK"/*.deb
  if ! apt-get "${APT[@]}" -qq update >/dev/null 2>"$WORK/err"; then echo "install-nats-server: apt-get update for $suite failed: $(tail -1 "$WORK/err")" >&2; continue; fi
  if ! (cd "$WORK" && apt-get "${APT[@]}" -qq download "nats-server/$suite" >/dev/null 2>"$WORK/err"); then echo "install-nats-server: no nats-server in $suite: $(tail -1 "$WORK/err")" >&2; continue; fi
  dpkg -x "$WORK"/nats-server_*.deb "$WORK/x"
  cp "$WORK/x/usr/sbin/nats-server" "$BIN.new" && chmod 755 "$BIN.new" && mv "$BIN.new" "$BIN"
  if v=$(good "$BIN"); then echo "nats-server $v (Debian $suite): $BIN"; exit 0; fi
  echo "install-nats-server: $suite's nats-server does not run here or is older than 2.10" >&2
done
echo "install-nats-server: could not install a nats-server >= 2.10" >&2
exit 1

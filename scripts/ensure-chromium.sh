#!/usr/bin/env bash
# Ensures /usr/bin/chromium, the headless browser the web page's tests drive (test/support/browser.ts,
# through playwright-core), and prints its path. Debian's package where apt-get has it (.ci/run's
# machine); where the distribution ships only a stub of a snap (Ubuntu, GitHub's runners), a
# Chromium or Chrome already installed is linked there. Idempotent.
set -euo pipefail

target=/usr/bin/chromium
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
if [ ! -x "$target" ] && command -v apt-get >/dev/null 2>&1; then
  $sudo apt-get update -qq >/dev/null
  # A package with a file to download: Debian's own, not a transitional stub.
  # (The listing read whole first: `grep -q` would stop it early, and pipefail take that as a failure.)
  if apt-cache show chromium 2>/dev/null | grep '^Filename:' >/dev/null; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
  fi
fi
if [ ! -x "$target" ]; then
  for other in chromium-browser google-chrome-stable google-chrome; do
    if found=$(command -v "$other"); then
      $sudo ln -sf "$found" "$target"
      break
    fi
  done
fi
if [ ! -x "$target" ]; then
  echo "ensure-chromium: no Chromium found or installable; install it (apt-get install -y chromium)" >&2
  exit 1
fi
echo "$target"

#!/usr/bin/env bash
# Ensures the local registries of the by-name e2e tests (test/e2e/by-name-*.test.ts) and prints
# their directory on the last line of stdout:
#   <dir>/node_modules/.bin/verdaccio  the npm registry (tools/registries: verdaccio 6.8.0, its
#                                      node-fetch overridden to 2.7.0; `npm ci` from the committed lock)
#   <dir>/venv/bin/pypi-server, twine  the Python package index and its upload client
# Made once per machine in the cache of scripts/ensure-pulumi.sh (registries-<hash of the lock and
# the Python pins>), from the npm registry and PyPI: measured 43 s and 130 MB (327 npm packages,
# 58 MB; the virtualenv 73 MB). Idempotent; safe to call from several processes (a lock guards it).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
tools=$repo/tools/registries
python_pins="pypiserver==2.4.2 twine==7.0.0"
hash=$({ cat "$tools/package-lock.json"; echo "$python_pins"; } | sha256sum | cut -c1-12)
dir=${PULUMI_EMBEDDED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-embedded-connectors}/registries-$hash
python=${PYTHON:-python3}
mkdir -p "$dir"

exec 9>"$dir/.lock"
flock 9
# The stamp is written last: a directory without it is incomplete (an interrupted run) and remade.
if [ ! -f "$dir/.complete" ]; then
  if ! command -v "$python" >/dev/null 2>&1; then
    echo "ensure-registries: $python is not on PATH: install Python 3.9 or later (with its venv module)" >&2
    exit 1
  fi
  start=$(date +%s)
  echo "ensure-registries: installing verdaccio, pypiserver and twine into $dir (once per machine)..." >&2
  rm -rf "$dir/node_modules" "$dir/venv"
  cp "$tools/package.json" "$tools/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --silent --no-audit --no-fund >&2)
  "$python" -m venv "$dir/venv"
  # shellcheck disable=SC2086 # the pins are words
  "$dir/venv/bin/python" -m pip install --quiet --disable-pip-version-check $python_pins >&2
  touch "$dir/.complete"
  echo "ensure-registries: made in $(($(date +%s) - start)) s ($(du -sh "$dir" | cut -f1))" >&2
fi
flock -u 9
echo "$dir"

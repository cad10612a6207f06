#!/usr/bin/env bash
# Publishes the npm package of a release directory (what `npm run release` writes) to an npm
# registry. The release workflow (.github/workflows/release.yml) and the by-name e2e
# (test/e2e/by-name-*.test.ts) run this same command; only the registry and its credentials differ:
# - the workflow: https://registry.npmjs.org/, trusted publishing (npm 11.5+ trades the job's
#   OIDC token for a publish token; NPM_CONFIG_PROVENANCE=true adds --provenance);
# - the e2e: verdaccio on loopback, its token in the file NPM_CONFIG_USERCONFIG names.
# PUBLISH_DRY_RUN=1: `npm publish --dry-run` (checks and lists the package, publishes nothing).
# Usage: scripts/publish/npm.sh <registry-url> <release-dir>
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: scripts/publish/npm.sh <registry-url> <release-dir>" >&2
  exit 2
fi
registry=$1
dir=$2
shopt -s nullglob
tarballs=("$dir"/pulumi-embedded-connectors-*.tgz)
if [ ${#tarballs[@]} -ne 1 ]; then
  echo "publish/npm: expected one pulumi-embedded-connectors-<version>.tgz in $dir, found ${#tarballs[@]}; run \`npm run release -- --out $dir\` first" >&2
  exit 1
fi
dry=()
[ "${PUBLISH_DRY_RUN:-0}" = 1 ] && dry=(--dry-run)
echo "publish/npm: ${tarballs[0]##*/} to $registry ${dry[*]}" >&2
npm publish "${tarballs[0]}" --registry "$registry" --access public "${dry[@]}"

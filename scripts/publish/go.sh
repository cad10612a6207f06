#!/usr/bin/env bash
# Publishes the Go SDK: pushes the Go module's version tag, on the commit checked out, to a git
# remote. Go finds a module in a subdirectory by the tag <directory>/v<version> (sdk/go/go.mod:
# sdk/go/v0.1.0), so the tag is derived from where the committed go.mod is. The release workflow
# (.github/workflows/release.yml) pushes it to origin (GitHub; the Go module proxy then serves
# it); the by-name e2e (test/e2e/by-name-go.test.ts) runs this same script, pushing to a bare
# repository that stands in for GitHub (git's url.<remote>.insteadOf). No local tag is made.
# Refuses when the remote has the tag on another commit (a published version never moves).
# PUBLISH_DRY_RUN=1: `git push --dry-run`.
# Usage: scripts/publish/go.sh <git-remote> <version>   (run inside the repository)
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: scripts/publish/go.sh <git-remote> <version>" >&2
  exit 2
fi
remote=$1
version=${2#v}
root=$(git rev-parse --show-toplevel)
mapfile -t mods < <(cd "$root" && git ls-files 'sdk/*go.mod')
if [ ${#mods[@]} -ne 1 ]; then
  echo "publish/go: expected one committed go.mod under sdk/, found ${#mods[@]} (${mods[*]:-none})" >&2
  exit 1
fi
module=$(git -C "$root" show "HEAD:${mods[0]}" | awk '$1 == "module" { print $2; exit }')
case $module in
*.*/*) ;;
*)
  echo "publish/go: ${mods[0]} declares module $module, which has no domain: Go cannot fetch it by name" >&2
  exit 1
  ;;
esac
tag=$(dirname "${mods[0]}")/v$version
head=$(git rev-parse HEAD)
existing=$(git ls-remote "$remote" "refs/tags/$tag" | cut -f1)
if [ -n "$existing" ] && [ "$existing" != "$head" ]; then
  echo "publish/go: $remote has tag $tag on commit $existing, not HEAD ($head); a published version never moves" >&2
  exit 1
fi
dry=()
[ "${PUBLISH_DRY_RUN:-0}" = 1 ] && dry=(--dry-run)
echo "publish/go: $module $tag ($head) to $remote ${dry[*]}" >&2
git push --quiet "${dry[@]}" "$remote" "$head:refs/tags/$tag"

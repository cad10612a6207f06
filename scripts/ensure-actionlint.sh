#!/usr/bin/env bash
# Ensures actionlint (the version tools/actionlint/go.mod pins) and prints its path on the
# last line of stdout. Built once per machine from the Go module proxy into the same cache
# as the engine (~/.cache/pulumi-embedded-connectors/actionlint-<version>), as
# scripts/ensure-pulumi.sh builds the engine; the committed go.sum verifies the download.
# Idempotent; safe to call from several processes (a lock guards the build).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
module=$repo/tools/actionlint
version=$(awk '$1 == "require" && $2 == "github.com/rhysd/actionlint" { print $3 }' "$module/go.mod")
cache=${PULUMI_EMBEDDED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-embedded-connectors}/actionlint-$version
bin=$cache/actionlint
mkdir -p "$cache"

exec 9>"$cache/.lock"
flock 9
if [ ! -x "$bin" ]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "ensure-actionlint: Go is needed to build actionlint $version (https://go.dev/dl/)" >&2
    exit 1
  fi
  start=$(date +%s)
  echo "ensure-actionlint: building actionlint $version from the Go module proxy (once per machine)..." >&2
  export GOSUMDB=off GOFLAGS=-mod=mod CGO_ENABLED=0
  (cd "$module" && go build -trimpath -ldflags "-X github.com/rhysd/actionlint.version=$version" -o "$bin.tmp" github.com/rhysd/actionlint/cmd/actionlint)
  mv "$bin.tmp" "$bin"
  echo "ensure-actionlint: built in $(( $(date +%s) - start )) s" >&2
fi
echo "$bin"

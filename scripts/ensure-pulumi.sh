#!/usr/bin/env bash
# Ensures a Pulumi CLI, the Node.js, Pulumi YAML, Python and Go language hosts, the
# policy analyzer's launcher (pulumi-analyzer-policy), and prints the bin directory holding them. Usage: ensure-pulumi.sh [vX.Y.Z]
#
# - Without an argument: the version of @pulumi/pulumi in node_modules (the
#   suite's engine). With one: that CLI version (npm run test:compat).
# - A `pulumi` of that version already on PATH (with pulumi-language-nodejs and
#   pulumi-language-yaml beside it) is used as is.
# - Otherwise they are built from the Go module proxy into a cache outside the
#   clone, keyed by version, so that later runs on the same machine reuse them:
#   the CLI from tools/pulumi-<version> if there is one, else tools/pulumi (the
#   version its go.mod pins); the language hosts from tools/pulumi-language-nodejs,
#   tools/pulumi-language-yaml, tools/pulumi-language-python (with its shim
#   pulumi-language-python-exec beside it) and tools/pulumi-language-go (the
#   same for every CLI version). A cache missing only the YAML, Python or Go host
#   (or holding another version of it) gets just that host built.
# Idempotent; safe to call from several processes (a lock guards the build).
# Progress goes to stderr; the last line of stdout is the bin directory.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-v$(node -p "require('$repo/node_modules/@pulumi/pulumi/package.json').version" 2>/dev/null || true)}
if [ "$version" = "v" ]; then
  echo "ensure-pulumi: node_modules/@pulumi/pulumi is missing; run 'npm ci' first" >&2
  exit 1
fi
if [ -d "$repo/tools/pulumi-$version" ]; then
  cli_module=$repo/tools/pulumi-$version
elif grep -q "github.com/pulumi/pulumi/pkg/v3 $version\$" "$repo/tools/pulumi/go.mod"; then
  cli_module=$repo/tools/pulumi
else
  echo "ensure-pulumi: no Go module pins pulumi $version: add tools/pulumi-$version (go.mod, go.sum, tools.go; see tools/pulumi-v3.274.1)" >&2
  exit 1
fi

nodejs_plugin="$repo/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"

if command -v pulumi >/dev/null 2>&1 && command -v pulumi-language-nodejs >/dev/null 2>&1 &&
  command -v pulumi-analyzer-policy >/dev/null 2>&1 &&
  command -v pulumi-language-yaml >/dev/null 2>&1 && command -v pulumi-language-python >/dev/null 2>&1 &&
  command -v pulumi-language-python-exec >/dev/null 2>&1 && command -v pulumi-language-go >/dev/null 2>&1; then
  if [ "$(pulumi version 2>/dev/null)" = "$version" ]; then
    dirname "$(command -v pulumi)"
    exit 0
  fi
fi

cache=${PULUMI_EMBEDDED_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-embedded-connectors}/$version
bin=$cache/bin
mkdir -p "$cache"

yaml_module=$repo/tools/pulumi-language-yaml
yaml_version=$(awk '$1 == "require" && $2 == "github.com/pulumi/pulumi-yaml" { print $3 }' "$yaml_module/go.mod")
# pulumi-language-yaml has no --version; a stamp beside it records what was built.
yaml_stamp=$bin/.pulumi-language-yaml.version

built() { [ -x "$bin/pulumi" ] && [ -x "$bin/pulumi-language-nodejs" ] && [ "$("$bin/pulumi" version 2>/dev/null)" = "$version" ]; }
yaml_built() { [ -x "$bin/pulumi-language-yaml" ] && [ "$(cat "$yaml_stamp" 2>/dev/null)" = "$yaml_version" ]; }
# The Python and Go hosts: each built from the sdk/v3 its module pins, recorded in a stamp.
python_module=$repo/tools/pulumi-language-python
go_module=$repo/tools/pulumi-language-go
sdk_version_of() { awk '$1 == "require" && $2 == "github.com/pulumi/pulumi/sdk/v3" { print $3 }' "$1/go.mod"; }
python_version=$(sdk_version_of "$python_module")
go_version=$(sdk_version_of "$go_module")
python_built() {
  [ -x "$bin/pulumi-language-python" ] && [ -x "$bin/pulumi-language-python-exec" ] &&
    [ "$(cat "$bin/.pulumi-language-python.version" 2>/dev/null)" = "$python_version" ]
}
go_built() { [ -x "$bin/pulumi-language-go" ] && [ "$(cat "$bin/.pulumi-language-go.version" 2>/dev/null)" = "$go_version" ]; }

# The Node.js host, from the sdk/v3 its module pins, with the RunPlugin that runs policy packs
# (tools/pulumi-language-nodejs/run_plugin.go.in) put beside its sources; a stamp records it.
nodejs_module=$repo/tools/pulumi-language-nodejs
nodejs_stamp_value="runplugin-$(cksum <"$nodejs_module/run_plugin.go.in" | cut -d' ' -f1)"
nodejs_built() { [ "$(cat "$bin/.pulumi-language-nodejs.version" 2>/dev/null)" = "$nodejs_stamp_value" ]; }
build_nodejs_host() {
  echo "ensure-pulumi: building pulumi-language-nodejs (with RunPlugin for policy packs)..." >&2
  local src work
  src="$(cd "$nodejs_module" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/nodejs/cmd/pulumi-language-nodejs"
  work=$(mktemp -d)
  cp "$nodejs_module/go.mod" "$nodejs_module/go.sum" "$work/"
  for f in "$src"/*.go; do case "$f" in *_test.go) ;; *) cp "$f" "$work/" ;; esac; done
  chmod -R u+w "$work"
  cp "$nodejs_module/run_plugin.go.in" "$work/run_plugin.go"
  # Its RunPlugin answers "not supported"; it hands the request to runPolicyPack instead.
  perl -0pi -e 's/(RunPluginServer,\n\) error \{\n)\treturn errors\.New\("not supported"\)/$1\treturn runPolicyPack(req, server)/' "$work/main.go"
  grep -q "return runPolicyPack(req, server)" "$work/main.go" || { echo "ensure-pulumi: could not patch the host's RunPlugin" >&2; return 1; }
  (cd "$work" && go build -trimpath -ldflags "$ldflags" -o "$1/.pulumi-language-nodejs.tmp" .)
  mv -f "$1/.pulumi-language-nodejs.tmp" "$1/pulumi-language-nodejs"
  echo "$nodejs_stamp_value" >"$1/.pulumi-language-nodejs.version"
  rm -rf "$work"
}

exec 9>"$cache/.lock"
flock 9
# The go.sum files of the modules are committed: they are what verifies the
# downloads, since the checksum database is not reachable from here.
export GOSUMDB=off GOFLAGS=-mod=mod CGO_ENABLED=0
if ! built; then
  start=$(date +%s)
  rm -rf "$bin.tmp"
  mkdir -p "$bin.tmp"
  ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version"
  echo "ensure-pulumi: building pulumi $version from the Go module proxy (several minutes, once per machine)..." >&2
  (cd "$cli_module" && go build -trimpath -ldflags "$ldflags" -o "$bin.tmp/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi)
  build_nodejs_host "$bin.tmp"
  # Keep the YAML, Python and Go hosts already built (they do not depend on the CLI version).
  if yaml_built; then
    mv "$bin/pulumi-language-yaml" "$yaml_stamp" "$bin.tmp/"
  fi
  if python_built; then
    mv "$bin/pulumi-language-python" "$bin/pulumi-language-python-exec" "$bin/.pulumi-language-python.version" "$bin.tmp/"
  fi
  if go_built; then
    mv "$bin/pulumi-language-go" "$bin/.pulumi-language-go.version" "$bin.tmp/"
  fi
  rm -rf "$bin"
  mv "$bin.tmp" "$bin"
  echo "ensure-pulumi: built in $(( $(date +%s) - start )) s, $(du -sh "$bin" | cut -f1)" >&2
fi
if ! nodejs_built; then
  ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version"
  build_nodejs_host "$bin"
fi
if ! yaml_built; then
  start=$(date +%s)
  echo "ensure-pulumi: building pulumi-language-yaml $yaml_version..." >&2
  # Built beside its final name, then renamed: the install is atomic.
  (cd "$yaml_module" && go build -trimpath -ldflags "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yaml_version" \
    -o "$bin/.pulumi-language-yaml.tmp" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml)
  mv -f "$bin/.pulumi-language-yaml.tmp" "$bin/pulumi-language-yaml"
  echo "$yaml_version" >"$yaml_stamp"
  echo "ensure-pulumi: built pulumi-language-yaml in $(( $(date +%s) - start )) s, $(du -h "$bin/pulumi-language-yaml" | cut -f1)" >&2
fi
if ! python_built; then
  start=$(date +%s)
  echo "ensure-pulumi: building pulumi-language-python (sdk/v3 $python_version)..." >&2
  (cd "$python_module" && go build -trimpath -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$python_version" \
    -o "$bin/.pulumi-language-python.tmp" github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python)
  # The host runs programs through this shim (python on PATH: a virtualenv's bin first).
  shim="$(cd "$python_module" && go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec"
  cp "$shim" "$bin/.pulumi-language-python-exec.tmp"
  chmod 755 "$bin/.pulumi-language-python-exec.tmp"
  mv -f "$bin/.pulumi-language-python-exec.tmp" "$bin/pulumi-language-python-exec"
  mv -f "$bin/.pulumi-language-python.tmp" "$bin/pulumi-language-python"
  echo "$python_version" >"$bin/.pulumi-language-python.version"
  echo "ensure-pulumi: built pulumi-language-python in $(( $(date +%s) - start )) s, $(du -h "$bin/pulumi-language-python" | cut -f1)" >&2
fi
if ! go_built; then
  start=$(date +%s)
  echo "ensure-pulumi: building pulumi-language-go (sdk/v3 $go_version)..." >&2
  (cd "$go_module" && go build -trimpath -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$go_version" \
    -o "$bin/.pulumi-language-go.tmp" github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go)
  mv -f "$bin/.pulumi-language-go.tmp" "$bin/pulumi-language-go"
  echo "$go_version" >"$bin/.pulumi-language-go.version"
  echo "ensure-pulumi: built pulumi-language-go in $(( $(date +%s) - start )) s, $(du -h "$bin/pulumi-language-go" | cut -f1)" >&2
fi
# The dynamic-provider plugin is a script shipped with @pulumi/pulumi; it
# resolves the SDK from the working directory, so one copy serves every clone.
cp "$nodejs_plugin" "$bin/pulumi-resource-pulumi-nodejs"
chmod +x "$bin/pulumi-resource-pulumi-nodejs"
# The policy analyzer's launcher (`pulumi preview --policy-pack`): Pulumi's release ships it beside
# the CLI as a small script that runs @pulumi/pulumi's policy-pack runner, resolved from the pack's
# directory (the engine starts it there), with node. Written on every run, as the plugin above.
cat >"$bin/.pulumi-analyzer-policy.tmp" <<'LAUNCHER'
#!/bin/sh
runner=$(node -e "try { console.log(require.resolve('@pulumi/pulumi/cmd/run-policy-pack')) } catch (e) { console.error(e.message) }")
if [ -n "$runner" ]; then
    exec node "$runner" "$@"
fi
exit 1
LAUNCHER
chmod 755 "$bin/.pulumi-analyzer-policy.tmp"
mv -f "$bin/.pulumi-analyzer-policy.tmp" "$bin/pulumi-analyzer-policy"
flock -u 9
echo "ensure-pulumi: using $bin/pulumi ($version)" >&2
echo "$bin"

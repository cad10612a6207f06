//go:build tools

// Package tools pins the YAML language host that scripts/ensure-pulumi.sh builds.
package tools

import (
	_ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
)

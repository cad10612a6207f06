//go:build tools

// Package tools pins the Python language host that scripts/ensure-pulumi.sh builds.
package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
)

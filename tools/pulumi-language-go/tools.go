//go:build tools

// Package tools pins the Go language host that scripts/ensure-pulumi.sh builds.
package tools

import (
	_ "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go"
)

//go:build tools

// Package tools pins the CLI that scripts/ensure-pulumi.sh builds.
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)

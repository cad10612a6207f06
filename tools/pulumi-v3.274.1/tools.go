//go:build tools

// Package tools pins the newest CLI the module proxy here serves and builds
// (v3.274.1), for the compatibility run (npm run test:compat, cell b).
package tools

import (
	_ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
)

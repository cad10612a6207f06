//go:build tools

// Package tools pins actionlint, which scripts/ensure-actionlint.sh builds to lint the example
// GitHub Actions workflows in the tests (test/integration/cli/fleet/workflow.test.ts).
package tools

import (
	_ "github.com/rhysd/actionlint/cmd/actionlint"
)

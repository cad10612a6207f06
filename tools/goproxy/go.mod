// Writes a Go module into a directory in the module proxy layout (GOPROXY=file://<dir>), as a
// module proxy serves a tagged release: the Go recipe's test and the loopback by-name tests.
module pulumi-embedded-connectors/tools/goproxy

go 1.25.11

require golang.org/x/mod v0.36.0

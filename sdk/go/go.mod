// The Go SDK of the plugin embedded. Kept by hand (Pulumi's Go generator writes the package
// sdk/go/embedded, not this file): the module path is the schema's language.go.modulePath.
module github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go

go 1.25

require github.com/pulumi/pulumi/sdk/v3 v3.248.0

// The upgrade fixtures' program of the plugin `embedded` from Go (test/e2e/upgrade/README.md):
// what a user wrote against an earlier version of the SDK and keeps, unchanged, when upgrading
// it. Two connectors added, one configured with a Text, a Select, a Multi-Select, a Number, a
// Date and a Password from secret stack config. Built with examples/go-sub-account's go.mod and
// go.sum (the recorder and the test copy them beside this file).
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go/embedded"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		s3, err := embedded.FindConnector(ctx, &embedded.FindConnectorArgs{Name: "Amazon S3", SupportedType: "Source"})
		if err != nil {
			return err
		}
		facebook, err := embedded.FindConnector(ctx, &embedded.FindConnectorArgs{Name: "Facebook Custom Audiences", SupportedType: "Destination"})
		if err != nil {
			return err
		}

		source, err := embedded.NewAddedConnector(ctx, "s3Source", &embedded.AddedConnectorArgs{ConnectorId: pulumi.String(s3.ConnectorId)})
		if err != nil {
			return err
		}
		destination, err := embedded.NewAddedConnector(ctx, "facebookDestination", &embedded.AddedConnectorArgs{ConnectorId: pulumi.String(facebook.ConnectorId)})
		if err != nil {
			return err
		}

		configuration, err := embedded.NewConnectorConfiguration(ctx, "s3SourceConfiguration", &embedded.ConnectorConfigurationArgs{
			ConnectorId: source.ConnectorId,
			SecretConfig: pulumi.Map{
				"bucket":          pulumi.String("acme-exports"),
				"accessKeyId":     pulumi.String("AKIAUPGRADEEXAMPLE"),
				"region":          pulumi.String("eu-west-1"),
				"fileFormats":     pulumi.ToStringArray([]string{"csv", "parquet"}),
				"maxFileSizeMb":   pulumi.Int(512),
				"startDate":       pulumi.String("2026-01-15"),
				"secretAccessKey": cfg.RequireSecret("s3SecretAccessKey"),
			},
		})
		if err != nil {
			return err
		}

		ctx.Export("sourceConnectorId", source.ConnectorId)
		ctx.Export("destinationConnectorId", destination.ConnectorId)
		ctx.Export("sourceConfigured", configuration.Configured)
		return nil
	})
}

// docs/policy.md's Go program: a source and a destination added, the source configured. Its ids
// and fields come from stack config; the Password from a secret one.
package main

import (
	"github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go/embedded"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		source, err := embedded.NewAddedConnector(ctx, "source", &embedded.AddedConnectorArgs{
			ConnectorId: pulumi.String(cfg.Require("sourceId")),
		})
		if err != nil {
			return err
		}
		_, err = embedded.NewAddedConnector(ctx, "destination", &embedded.AddedConnectorArgs{
			ConnectorId: pulumi.String(cfg.Require("destinationId")),
			AccountId:   pulumi.String(cfg.Require("destinationAccountId")),
		})
		if err != nil {
			return err
		}
		_, err = embedded.NewConnectorConfiguration(ctx, "sourceConfiguration", &embedded.ConnectorConfigurationArgs{
			ConnectorId:     source.ConnectorId,
			ConfigurationId: pulumi.String(cfg.Require("configurationId")), // an id: plain
			SecretConfig: pulumi.Map{
				"bucket":      pulumi.String(cfg.Require("bucket")),
				"accessKeyId": pulumi.String(cfg.Require("accessKeyId")),
				"region":      pulumi.String(cfg.Require("region")),
				// A Password: `pulumi config set --secret secretAccessKey ...`, read as a secret.
				"secretAccessKey": cfg.RequireSecret("secretAccessKey"),
				"fileFormats":     pulumi.String(cfg.Get("fileFormats")),
			},
		})
		return err
	})
}

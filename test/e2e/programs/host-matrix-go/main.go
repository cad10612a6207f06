// The host matrix's program (test/e2e/host-matrix.test.ts): a source looked up by the name
// `lookupName`, added and configured with `sourceFields`; a destination added by `destinationId`.
package main

import (
	"github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go/embedded"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		source, err := embedded.FindConnector(ctx, &embedded.FindConnectorArgs{Name: cfg.Require("lookupName"), SupportedType: "Source"})
		if err != nil {
			return err
		}
		added, err := embedded.NewAddedConnector(ctx, "source", &embedded.AddedConnectorArgs{ConnectorId: pulumi.String(source.ConnectorId)})
		if err != nil {
			return err
		}
		if _, err := embedded.NewAddedConnector(ctx, "destination", &embedded.AddedConnectorArgs{ConnectorId: pulumi.String(cfg.Require("destinationId"))}); err != nil {
			return err
		}
		var fields map[string]interface{}
		cfg.RequireObject("sourceFields", &fields)
		_, err = embedded.NewConnectorConfiguration(ctx, "sourceConfiguration", &embedded.ConnectorConfigurationArgs{
			ConnectorId:  added.ConnectorId,
			SecretConfig: pulumi.ToMap(fields),
		})
		return err
	})
}

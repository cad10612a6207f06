// One sub-account in Go: the program of examples/yaml-sub-account, with the generated SDK.
package main

import (
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"

	"github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go/embedded"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		// Lookups run at preview: a typo in a name fails here, listing near matches.
		s3, err := embedded.FindConnector(ctx, &embedded.FindConnectorArgs{Name: "Amazon S3", SupportedType: "Source"})
		if err != nil {
			return err
		}
		facebook, err := embedded.FindConnector(ctx, &embedded.FindConnectorArgs{Name: "Facebook Custom Audiences", SupportedType: "Destination"})
		if err != nil {
			return err
		}

		// The sub-account of the stack config (`embedded:baseUrl`, `embedded:clientId`,
		// `embedded:clientSecret`, `embedded:accountId`): the default provider.
		s3Source, err := embedded.NewAddedConnector(ctx, "s3Source", &embedded.AddedConnectorArgs{ConnectorId: pulumi.String(s3.ConnectorId)})
		if err != nil {
			return err
		}
		facebookDestination, err := embedded.NewAddedConnector(ctx, "facebookDestination", &embedded.AddedConnectorArgs{ConnectorId: pulumi.String(facebook.ConnectorId)})
		if err != nil {
			return err
		}

		// s3Source.ConnectorId (an output) orders the configuration after the add. The whole
		// SecretConfig is stored as a secret; the Password fields come from secret config.
		s3Configuration, err := embedded.NewConnectorConfiguration(ctx, "s3SourceConfiguration", &embedded.ConnectorConfigurationArgs{
			ConnectorId: s3Source.ConnectorId,
			SecretConfig: pulumi.Map{
				"bucket":          pulumi.String("acme-exports"),
				"accessKeyId":     pulumi.String("AKIAGOEXAMPLE"),
				"region":          pulumi.String("eu-west-1"),
				"fileFormats":     pulumi.ToStringArray([]string{"csv", "parquet"}),
				"maxFileSizeMb":   pulumi.Int(512),
				"secretAccessKey": cfg.RequireSecret("s3SecretAccessKey"),
			},
		})
		if err != nil {
			return err
		}
		facebookConfiguration, err := embedded.NewConnectorConfiguration(ctx, "facebookDestinationConfiguration", &embedded.ConnectorConfigurationArgs{
			ConnectorId: facebookDestination.ConnectorId,
			SecretConfig: pulumi.Map{
				"adAccountId":  pulumi.String("act_1001"),
				"apiVersion":   pulumi.String("v20.0"),
				"permissions":  pulumi.ToStringArray([]string{"read", "audiences"}),
				"clientSecret": cfg.RequireSecret("facebookClientSecret"),
			},
		})
		if err != nil {
			return err
		}

		// A second customer's sub-account: an explicit provider with that customer's credentials.
		// The lookup and the resources given pulumi.Provider(partner) use it instead of the stack config.
		partner, err := embedded.NewProvider(ctx, "partner", &embedded.ProviderArgs{
			BaseUrl:      pulumi.String(cfg.Require("partnerBaseUrl")),
			ClientId:     pulumi.String(cfg.Require("partnerClientId")),
			ClientSecret: cfg.RequireSecret("partnerClientSecret"),
			AccountId:    pulumi.String(cfg.Require("partnerAccountId")),
		})
		if err != nil {
			return err
		}
		partnerSegment := embedded.FindConnectorOutput(ctx, embedded.FindConnectorOutputArgs{
			Name: pulumi.String("Segment"), SupportedType: pulumi.String("Source"),
		}, pulumi.Provider(partner))
		partnerSource, err := embedded.NewAddedConnector(ctx, "partnerSegmentSource", &embedded.AddedConnectorArgs{
			ConnectorId: partnerSegment.ConnectorId(),
		}, pulumi.Provider(partner))
		if err != nil {
			return err
		}
		partnerConfiguration, err := embedded.NewConnectorConfiguration(ctx, "partnerSegmentSourceConfiguration", &embedded.ConnectorConfigurationArgs{
			ConnectorId: partnerSource.ConnectorId,
			SecretConfig: pulumi.Map{
				"apiKey":     cfg.RequireSecret("partnerSegmentApiKey"),
				"workspace":  pulumi.String("partner"),
				"dataCenter": pulumi.String("EU"),
				"eventTypes": pulumi.ToStringArray([]string{"track", "identify"}),
				"batchSize":  pulumi.Int(500),
			},
		}, pulumi.Provider(partner))
		if err != nil {
			return err
		}

		// Flat outputs: ids and names; no output of the provider holds a configuration value.
		ctx.Export("accountId", s3Source.AccountId)
		ctx.Export("sourceConnectorId", s3Source.ConnectorId)
		ctx.Export("sourceName", s3Source.Name)
		ctx.Export("sourceConnections", s3Source.SrcConnections)
		ctx.Export("destinationConnectorId", facebookDestination.ConnectorId)
		ctx.Export("destinationName", facebookDestination.Name)
		ctx.Export("destinationConnections", facebookDestination.DestConnections)
		ctx.Export("sourceConfigured", s3Configuration.Configured)
		ctx.Export("destinationConfigured", facebookConfiguration.Configured)
		ctx.Export("partnerAccountId", partnerSource.AccountId)
		ctx.Export("partnerConnectorName", partnerSource.Name)
		ctx.Export("partnerConfigured", partnerConfiguration.Configured)
		return nil
	})
}

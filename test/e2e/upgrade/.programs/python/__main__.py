"""The upgrade fixtures' program of the plugin `embedded` from Python (test/e2e/upgrade/README.md).

What a user wrote against an earlier version of the SDK and keeps, unchanged, when upgrading it.
Two connectors added, one configured with a Text, a Select, a Multi-Select, a Number, a Date and
a Password from secret stack config.
"""
import pulumi
import pulumi_embedded as embedded

config = pulumi.Config()

s3 = embedded.find_connector(name="Amazon S3", supported_type="Source")
facebook = embedded.find_connector(name="Facebook Custom Audiences", supported_type="Destination")

source = embedded.AddedConnector("s3Source", connector_id=s3.connector_id)
destination = embedded.AddedConnector("facebookDestination", connector_id=facebook.connector_id)

configuration = embedded.ConnectorConfiguration(
    "s3SourceConfiguration",
    connector_id=source.connector_id,
    secret_config={
        "bucket": "acme-exports",
        "accessKeyId": "AKIAUPGRADEEXAMPLE",
        "region": "eu-west-1",
        "fileFormats": ["csv", "parquet"],
        "maxFileSizeMb": 512,
        "startDate": "2026-01-15",
        "secretAccessKey": config.require_secret("s3SecretAccessKey"),
    },
)

pulumi.export("sourceConnectorId", source.connector_id)
pulumi.export("destinationConnectorId", destination.connector_id)
pulumi.export("sourceConfigured", configuration.configured)

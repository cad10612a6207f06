"""docs/policy.md's Python program: a source and a destination added, the source configured.
Its ids and fields come from stack config; the Password from a secret one."""
import pulumi
import pulumi_embedded as embedded

config = pulumi.Config()

source = embedded.AddedConnector("source", connector_id=config.require("sourceId"))
destination = embedded.AddedConnector(
    "destination",
    connector_id=config.require("destinationId"),
    account_id=config.require("destinationAccountId"),
)
embedded.ConnectorConfiguration(
    "sourceConfiguration",
    connector_id=source.connector_id,
    configuration_id=config.require("configurationId"),  # an id: plain
    secret_config={
        "bucket": config.require("bucket"),
        "accessKeyId": config.require("accessKeyId"),
        "region": config.require("region"),
        # A Password: `pulumi config set --secret secretAccessKey ...`, read as a secret.
        "secretAccessKey": config.require_secret("secretAccessKey"),
        "fileFormats": config.get("fileFormats", ""),
    },
)

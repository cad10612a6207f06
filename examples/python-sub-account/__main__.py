"""One sub-account in Python: the program of examples/yaml-sub-account, with the SDK pulumi_embedded."""
import pulumi
import pulumi_embedded as embedded

config = pulumi.Config()

# Lookups run at preview: a typo in a name fails here, listing near matches.
s3 = embedded.find_connector(name="Amazon S3", supported_type="Source")
facebook = embedded.find_connector(name="Facebook Custom Audiences", supported_type="Destination")

# The sub-account of the stack config (`embedded:baseUrl`, `embedded:clientId`,
# `embedded:clientSecret`, `embedded:accountId`): the default provider.
s3_source = embedded.AddedConnector("s3Source", connector_id=s3.connector_id)
facebook_destination = embedded.AddedConnector("facebookDestination", connector_id=facebook.connector_id)

# `s3_source.connector_id` (an output) orders the configuration after the add. The whole
# secret_config is stored as a secret; the Password fields come from secret config.
s3_configuration = embedded.ConnectorConfiguration(
    "s3SourceConfiguration",
    connector_id=s3_source.connector_id,
    secret_config={
        "bucket": "acme-exports",
        "accessKeyId": "AKIAPYTHONEXAMPLE",
        "region": "eu-west-1",
        "fileFormats": ["csv", "parquet"],
        "maxFileSizeMb": 512,
        "secretAccessKey": config.require_secret("s3SecretAccessKey"),
    },
)
facebook_configuration = embedded.ConnectorConfiguration(
    "facebookDestinationConfiguration",
    connector_id=facebook_destination.connector_id,
    secret_config={
        "adAccountId": "act_1001",
        "apiVersion": "v20.0",
        "permissions": ["read", "audiences"],
        "clientSecret": config.require_secret("facebookClientSecret"),
    },
)

# A second customer's sub-account: an explicit provider with that customer's credentials.
# The lookup and the resources given it in their options use it instead of the stack config.
partner = embedded.Provider(
    "partner",
    base_url=config.require("partnerBaseUrl"),
    client_id=config.require("partnerClientId"),
    client_secret=config.require_secret("partnerClientSecret"),
    account_id=config.require("partnerAccountId"),
)
partner_segment = embedded.find_connector_output(
    name="Segment", supported_type="Source", opts=pulumi.InvokeOutputOptions(provider=partner)
)
partner_source = embedded.AddedConnector(
    "partnerSegmentSource",
    connector_id=partner_segment.connector_id,
    opts=pulumi.ResourceOptions(provider=partner),
)
partner_configuration = embedded.ConnectorConfiguration(
    "partnerSegmentSourceConfiguration",
    connector_id=partner_source.connector_id,
    secret_config={
        "apiKey": config.require_secret("partnerSegmentApiKey"),
        "workspace": "partner",
        "dataCenter": "EU",
        "eventTypes": ["track", "identify"],
        "batchSize": 500,
    },
    opts=pulumi.ResourceOptions(provider=partner),
)

# Flat outputs: ids and names; no output of the provider holds a configuration value.
pulumi.export("accountId", s3_source.account_id)
pulumi.export("sourceConnectorId", s3_source.connector_id)
pulumi.export("sourceName", s3_source.name)
pulumi.export("sourceConnections", s3_source.src_connections)
pulumi.export("destinationConnectorId", facebook_destination.connector_id)
pulumi.export("destinationName", facebook_destination.name)
pulumi.export("destinationConnections", facebook_destination.dest_connections)
pulumi.export("sourceConfigured", s3_configuration.configured)
pulumi.export("destinationConfigured", facebook_configuration.configured)
pulumi.export("partnerAccountId", partner_source.account_id)
pulumi.export("partnerConnectorName", partner_source.name)
pulumi.export("partnerConfigured", partner_configuration.configured)

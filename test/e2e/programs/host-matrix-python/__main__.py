"""The host matrix's program (test/e2e/host-matrix.test.ts): a source looked up by the name
`lookupName`, added and configured with `sourceFields`; a destination added by `destinationId`."""
import pulumi
import pulumi_embedded as embedded

config = pulumi.Config()

source = embedded.find_connector(name=config.require("lookupName"), supported_type="Source")
added_source = embedded.AddedConnector("source", connector_id=source.connector_id)
destination = embedded.AddedConnector("destination", connector_id=config.require("destinationId"))
embedded.ConnectorConfiguration(
    "sourceConfiguration",
    connector_id=added_source.connector_id,
    secret_config=config.require_object("sourceFields"),
)

"""A lookup and an added connector through the SDK pulumi_embedded: the engine must get the plugin itself."""
import pulumi
import pulumi_embedded as embedded

s3 = embedded.find_connector(name="Amazon S3", supported_type="Source")
source = embedded.AddedConnector("s3Source", connector_id=s3.connector_id)
pulumi.export("connectorId", source.connector_id)

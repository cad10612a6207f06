// A lookup and an added connector, through the plugin `embedded` (config `api`: plugin; the
// engine must get the plugin itself) or through the dynamic resources (`api`: dynamic; no plugin).
import * as pulumi from "@pulumi/pulumi";
import * as ec from "pulumi-embedded-connectors";

const api = new pulumi.Config().require("api");

function throughPlugin(): pulumi.Output<string> {
  const s3 = ec.embedded.findConnectorOutput({ name: "Amazon S3", supportedType: "Source" });
  return new ec.embedded.AddedConnector("s3Source", { connectorId: s3.connectorId }).connectorId;
}

function dynamicOnly(): pulumi.Output<string> {
  const s3 = ec.findConnectorOutput({ name: "Amazon S3", supportedType: "Source" });
  return new ec.AddedConnector("s3Source", { connectorId: s3.connectorId }).connectorId;
}

export const connectorId = api === "plugin" ? throughPlugin() : dynamicOnly();

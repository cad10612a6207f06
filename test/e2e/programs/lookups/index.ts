// Failing lookups, as a user meets them. Stack config:
//   host:  "dynamic" (the package's functions, run in this process) or "plugin" (embedded.*)
//   shape: "readme"  the README's example with the first name misspelt: two lookups, two
//                    AddedConnectors fed by them, a ConnectorConfiguration fed by one of those;
//          "promise" the Promise form awaited at the top, no resource at all;
//          "thrown"  the README's shape with the first lookup replaced by a plain rejected
//                    Output (the baseline a lookup's failure is measured against).
//   name:  the first lookup's name (default "Amazon S4": not in the catalogue)
import * as pulumi from "@pulumi/pulumi";
import * as ec from "pulumi-embedded-connectors";

const config = new pulumi.Config();
const host = config.get("host") ?? "dynamic";
const shape = config.get("shape") ?? "readme";
const name = config.get("name") ?? "Amazon S4";

type Args = { name: string; supportedType: "Source" | "Destination" };
type Found = { connectorId: string };
const findOutput = (args: Args): pulumi.Output<Found> =>
  host === "plugin" ? ec.embedded.findConnectorOutput(args) : ec.findConnectorOutput(args);
const findPromise = (args: Args): Promise<Found> =>
  host === "plugin" ? ec.embedded.findConnector(args) : ec.findConnector(args);

function connector(key: string, connectorId: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions) {
  return host === "plugin"
    ? new ec.embedded.AddedConnector(key, { connectorId }, opts)
    : new ec.AddedConnector(key, { connectorId }, opts);
}

function configuration(key: string, connectorId: pulumi.Input<string>) {
  const secretConfig = {
    bucket: "acme-exports",
    accessKeyId: "AKIAEXAMPLE",
    region: "eu-west-1",
    secretAccessKey: pulumi.secret("not-used"),
  };
  return host === "plugin"
    ? new ec.embedded.ConnectorConfiguration(key, { connectorId, secretConfig })
    : new ec.ConnectorConfiguration(key, { connectorId, secretConfig });
}

async function main(): Promise<Record<string, unknown>> {
  if (shape === "promise") {
    const found = await findPromise({ name, supportedType: "Source" });
    return { found: found.connectorId };
  }
  const first =
    shape === "thrown"
      ? (pulumi.output(
          Promise.reject(new Error(`no connector named "${name}" (a plain error)`)),
        ) as pulumi.Output<Found>)
      : findOutput({ name, supportedType: "Source" });
  const second = findOutput({ name: "Facebook Custom Audiences", supportedType: "Destination" });
  const source = connector("s3-source", first.connectorId);
  const destination = connector("facebook-destination", second.connectorId);
  configuration("s3-source", source.connectorId);
  return { source: source.connectorId, destination: destination.connectorId };
}

export = main();

// The engine floor: dynamic resources of the same shapes as this package's (the same input
// and output properties, values of about the same sizes, the same secret output) whose
// operations call nothing. What the benchmark measures with them is what the Pulumi engine,
// the language host and the dynamic-provider process cost on their own for resources of
// that shape; the ratio this / floor is then what the provider's own work adds.
import * as pulumi from "@pulumi/pulumi";
import { CONFIGURATION_SECRET_OUTPUTS, configurationOutputs, connectorOutputs } from "./floor-outputs";

function floorProvider(
  outputs: (inputs: Record<string, unknown>) => Record<string, unknown>,
): pulumi.dynamic.ResourceProvider {
  return {
    async check(_olds, news) {
      return { inputs: news };
    },
    async create(inputs) {
      return { id: `floor/${String(inputs.connectorId)}`, outs: { ...inputs, ...outputs(inputs) } };
    },
    async read(id, props) {
      return { id, props };
    },
    async update(_id, _olds, news) {
      return { outs: { ...news, ...outputs(news) } };
    },
    async delete() {
      // nothing to remove
    },
  };
}

const addedProvider = floorProvider((inputs) => connectorOutputs(String(inputs.connectorId)));
const configurationProvider = floorProvider(configurationOutputs);

export class FloorAddedConnector extends pulumi.dynamic.Resource {
  constructor(name: string, args: { connectorId: pulumi.Input<string> }) {
    const props: pulumi.Inputs = { ...args, accountId: "floor", adoptExisting: false };
    for (const key of Object.keys(connectorOutputs(""))) props[key] = undefined;
    super(addedProvider, name, props, undefined, "bench-floor", "AddedConnector");
  }
}

export class FloorConfiguration extends pulumi.dynamic.Resource {
  constructor(
    name: string,
    args: {
      connectorId: pulumi.Input<string>;
      secretConfig: pulumi.Input<Record<string, pulumi.Input<string | number>>>;
    },
  ) {
    const props: pulumi.Inputs = {
      ...args,
      accountId: "floor",
      name: undefined,
      secretName: undefined,
      secretConfig: pulumi.secret(args.secretConfig),
    };
    for (const key of Object.keys(configurationOutputs({}))) props[key] = undefined;
    super(
      configurationProvider,
      name,
      props,
      { additionalSecretOutputs: CONFIGURATION_SECRET_OUTPUTS },
      "bench-floor",
      "ConnectorConfiguration",
    );
  }
}

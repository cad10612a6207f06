// The engine floor: dynamic resources of the same shapes whose operations call nothing.
// What the benchmark measures with them is what the Pulumi engine, the language host and
// the dynamic-provider process cost on their own.
import * as pulumi from "@pulumi/pulumi";

const floorProvider: pulumi.dynamic.ResourceProvider = {
    async check(_olds, news) {
        return { inputs: news };
    },
    async create(inputs) {
        return { id: `floor/${String(inputs.connectorId)}`, outs: inputs };
    },
    async read(id, props) {
        return { id, props };
    },
    async update(_id, _olds, news) {
        return { outs: news };
    },
    async delete() {
        // nothing to remove
    },
};

export class FloorAddedConnector extends pulumi.dynamic.Resource {
    constructor(name: string, args: { connectorId: pulumi.Input<string> }) {
        super(floorProvider, name, { ...args }, undefined, "bench-floor", "AddedConnector");
    }
}

export class FloorConfiguration extends pulumi.dynamic.Resource {
    constructor(name: string, args: { connectorId: pulumi.Input<string>; secretConfig: pulumi.Input<Record<string, pulumi.Input<string | number>>> }) {
        super(floorProvider, name, { ...args }, undefined, "bench-floor", "ConnectorConfiguration");
    }
}

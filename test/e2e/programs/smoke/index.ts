// Harness self-test: a dynamic resource that only echoes its input. It proves
// that the engine runs a TypeScript program of this repository, that dynamic
// providers start and receive stack config in configure(), and it is the
// subject of the test of the engine's `import` for dynamic resources.
import * as pulumi from "@pulumi/pulumi";

type Holder = { smokeBaseUrl?: string };

const echoProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
    (globalThis as Holder).smokeBaseUrl = req.config.get("embedded:baseUrl");
  },
  async create(inputs: pulumi.Inputs): Promise<pulumi.dynamic.CreateResult> {
    const value = String(inputs.value);
    return { id: `echo-${value}`, outs: { value, baseUrl: (globalThis as Holder).smokeBaseUrl ?? "" } };
  },
  async read(id: string, props?: pulumi.Inputs): Promise<pulumi.dynamic.ReadResult> {
    const value = typeof props?.value === "string" ? props.value : id.replace(/^echo-/, "");
    return { id, props: { value, baseUrl: (globalThis as Holder).smokeBaseUrl ?? "" } };
  },
  async diff(_id: string, olds: pulumi.Inputs, news: pulumi.Inputs): Promise<pulumi.dynamic.DiffResult> {
    return { changes: olds.value !== news.value, replaces: olds.value !== news.value ? ["value"] : [] };
  },
};

class Echo extends pulumi.dynamic.Resource {
  declare public readonly value: pulumi.Output<string>;
  declare public readonly baseUrl: pulumi.Output<string>;
  constructor(name: string, args: { value: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions) {
    super(echoProvider, name, { value: args.value, baseUrl: undefined }, opts, "smoke", "Echo");
  }
}

const config = new pulumi.Config();
const echo = new Echo("echo", { value: config.get("value") ?? "hello" });
const importId = config.get("importId");
const imported = importId
  ? new Echo("imported", { value: importId.replace(/^echo-/, "") }, { import: importId })
  : undefined;

export const value = echo.value;
export const baseUrl = echo.baseUrl;
export const secretLength = config.requireSecret("secretValue").apply((s) => s.length);
export const importedValue = imported ? imported.value : "none";

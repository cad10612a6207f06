// Shared set-up of the plugin tests: the plugin's gRPC server started in this process (as the
// engine would reach it, through the protocol's generated client), the local service, the
// secret and unknown markers of the wire, and a fake engine that records the plugin's Log calls.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import type { PluginInfo } from "@pulumi/pulumi/proto/plugin_pb";
import { ResourceProviderClient } from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as proto from "@pulumi/pulumi/proto/provider_pb";
import { serve } from "../../provider/hosts/plugin/server";
import { closeClients } from "../../provider/client";
import { configureRuntime } from "../../provider/runtime/runtime";
import { noConfig, SETTINGS } from "../../provider/settings/resolve";
import { startLocalService, type LocalService } from "../../harness/local-service";

/** Pulumi's secret signature (sdk rpc.specialSigKey / specialSecretSig) and unknown value, written out on purpose. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Props = Record<string, unknown>;
export interface Failure {
  property: string;
  reason: string;
}

/** A value as the engine sends a secret. */
export function secret(value: unknown): Props {
  return { [SIG_KEY]: SECRET_SIG, value };
}

export function isSecret(value: unknown): boolean {
  return value !== null && typeof value === "object" && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** How many secret markers wrap the value: 1 is right, 2 or more is a secret wrapped twice. */
export function secretDepth(value: unknown): number {
  let depth = 0;
  for (let v = value; isSecret(v); v = (v as Props).value) depth++;
  return depth;
}

/** The value inside a secret, however deep (fails when it is not a secret at all). */
export function secretValue(value: unknown, what = "value"): unknown {
  if (!isSecret(value)) throw new Error(`${what} is not a secret: ${JSON.stringify(value)}`);
  let v = value;
  while (isSecret(v)) v = (v as Props).value;
  return v;
}

export function struct(props: Props): Struct {
  return Struct.fromJavaScript(props as Parameters<typeof Struct.fromJavaScript>[0]);
}

/** A Struct as plain JavaScript, secret markers kept. */
export function raw(value: Struct | undefined): Props {
  return (value?.toJavaScript() ?? {}) as Props;
}

function failuresOf(list: proto.CheckFailure[]): Failure[] {
  return list.map((f) => ({ property: f.getProperty(), reason: f.getReason() }));
}

type Callback<Res> = (error: grpc.ServiceError | null, response: Res) => void;

function rpc<Res>(start: (done: Callback<Res>) => unknown): Promise<Res> {
  return new Promise((resolve, reject) => {
    start((error, response) => (error ? reject(error) : resolve(response)));
  });
}

/** `urn:pulumi:<stack>::<project>::embedded:index:<type>::<name>` */
export function urnOf(type: string, name: string, stack = "dev", project = "proj"): string {
  return `urn:pulumi:${stack}::${project}::embedded:index:${type}::${name}`;
}

/** The plugin's server and a client talking to it over loopback gRPC. */
export class Plugin {
  private constructor(
    readonly client: ResourceProviderClient,
    private readonly stopServer: () => void,
  ) {}

  /** `serve("0.1.0", engine)`, or a plugin already listening on `port` (another process). */
  static async start(engineAddress?: string): Promise<Plugin> {
    const { port, server, log } = await serve("0.1.0", engineAddress);
    return Plugin.connect(port, () => {
      log.close();
      server.forceShutdown();
    });
  }

  static connect(port: number, stop: () => void = () => undefined): Plugin {
    return new Plugin(new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()), stop);
  }

  close(): void {
    this.client.close();
    this.stopServer();
  }

  async version(): Promise<string> {
    return (await rpc<PluginInfo>((done) => this.client.getPluginInfo(new Empty(), done))).getVersion();
  }

  async schema(): Promise<string> {
    return (
      await rpc<proto.GetSchemaResponse>((done) => this.client.getSchema(new proto.GetSchemaRequest(), done))
    ).getSchema();
  }

  async checkConfig(news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: Failure[] }> {
    const request = new proto.CheckRequest()
      .setUrn("urn:pulumi:dev::proj::pulumi:providers:embedded::default")
      .setOlds(struct(olds))
      .setNews(struct(news));
    const response = await rpc<proto.CheckResponse>((done) => this.client.checkConfig(request, done));
    return { inputs: raw(response.getInputs()), failures: failuresOf(response.getFailuresList()) };
  }

  async diffConfig(olds: Props, news: Props): Promise<proto.DiffResponse> {
    const request = new proto.DiffRequest()
      .setUrn("urn:pulumi:dev::proj::pulumi:providers:embedded::default")
      .setOlds(struct(olds))
      .setNews(struct(news));
    return rpc<proto.DiffResponse>((done) => this.client.diffConfig(request, done));
  }

  /** Configure as current engines send it: the provider's inputs as `args` (and its URN, when given). */
  async configure(args: Props, urn?: string): Promise<proto.ConfigureResponse> {
    const request = new proto.ConfigureRequest().setArgs(struct(args)).setAcceptsecrets(true);
    if (urn !== undefined) request.setUrn(urn);
    return rpc<proto.ConfigureResponse>((done) => this.client.configure(request, done));
  }

  /** Configure as older engines send it: `embedded:config:<name>` variables, no args. */
  async configureVariables(variables: Record<string, string>): Promise<proto.ConfigureResponse> {
    const request = new proto.ConfigureRequest();
    for (const [key, value] of Object.entries(variables)) request.getVariablesMap().set(key, value);
    return rpc<proto.ConfigureResponse>((done) => this.client.configure(request, done));
  }

  async invoke(tok: string, args: Props): Promise<{ result?: Props; failures: Failure[] }> {
    const request = new proto.InvokeRequest().setTok(tok).setArgs(struct(args));
    const response = await rpc<proto.InvokeResponse>((done) => this.client.invoke(request, done));
    return {
      result: response.hasReturn() ? raw(response.getReturn()) : undefined,
      failures: failuresOf(response.getFailuresList()),
    };
  }

  async check(urn: string, news: Props, olds: Props = {}): Promise<{ inputs: Props; failures: Failure[] }> {
    const request = new proto.CheckRequest().setUrn(urn).setOlds(struct(olds)).setNews(struct(news));
    const response = await rpc<proto.CheckResponse>((done) => this.client.check(request, done));
    return { inputs: raw(response.getInputs()), failures: failuresOf(response.getFailuresList()) };
  }

  async diff(urn: string, id: string, olds: Props, news: Props): Promise<{ changes: number; replaces: string[] }> {
    const request = new proto.DiffRequest()
      .setUrn(urn)
      .setId(id)
      .setOlds(struct(olds))
      .setNews(struct(news))
      .setOldInputs(struct(olds));
    const response = await rpc<proto.DiffResponse>((done) => this.client.diff(request, done));
    return { changes: response.getChanges(), replaces: response.getReplacesList() };
  }

  /** The detailed diff: property path → PropertyDiff kind name (`UPDATE`, `ADD`, …). */
  async detailedDiff(urn: string, id: string, olds: Props, news: Props): Promise<Record<string, string>> {
    const request = new proto.DiffRequest()
      .setUrn(urn)
      .setId(id)
      .setOlds(struct(olds))
      .setNews(struct(news))
      .setOldInputs(struct(olds));
    const response = await rpc<proto.DiffResponse>((done) => this.client.diff(request, done));
    const kinds = Object.fromEntries(Object.entries(proto.PropertyDiff.Kind).map(([name, value]) => [value, name]));
    const details: Record<string, string> = {};
    response.getDetaileddiffMap().forEach((diff, path) => {
      details[path] = kinds[diff.getKind()];
    });
    return details;
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const request = new proto.CreateRequest().setUrn(urn).setProperties(struct(properties));
    const response = await rpc<proto.CreateResponse>((done) => this.client.create(request, done));
    return { id: response.getId(), properties: raw(response.getProperties()) };
  }

  async read(
    urn: string,
    id: string,
    properties: Props = {},
    inputs: Props = {},
  ): Promise<{ id: string; properties: Props; inputs: Props }> {
    const request = new proto.ReadRequest()
      .setUrn(urn)
      .setId(id)
      .setProperties(struct(properties))
      .setInputs(struct(inputs));
    const response = await rpc<proto.ReadResponse>((done) => this.client.read(request, done));
    return { id: response.getId(), properties: raw(response.getProperties()), inputs: raw(response.getInputs()) };
  }

  async update(urn: string, id: string, olds: Props, news: Props): Promise<Props> {
    const request = new proto.UpdateRequest()
      .setUrn(urn)
      .setId(id)
      .setOlds(struct(olds))
      .setNews(struct(news))
      .setOldInputs(struct(olds));
    return raw((await rpc<proto.UpdateResponse>((done) => this.client.update(request, done))).getProperties());
  }

  async delete(urn: string, id: string, properties: Props): Promise<void> {
    const request = new proto.DeleteRequest()
      .setUrn(urn)
      .setId(id)
      .setProperties(struct(properties))
      .setOldInputs(struct(properties));
    await rpc<Empty>((done) => this.client.delete(request, done));
  }
}

/** The gRPC error a call fails with (fails the test if it succeeds). */
export async function grpcError(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error && "code" in error) return error as grpc.ServiceError;
    throw error;
  }
  throw new Error("expected the call to fail, but it succeeded");
}

/**
 * No EMBEDDED_* setting from the environment (they would hide what the plugin's own settings
 * do), and pending-Add records in a temporary directory instead of ~/.pulumi. Returns the undo.
 */
export function isolateEnvironment(): () => void {
  const names = [...Object.values(SETTINGS).map((s) => s.env), "EMBEDDED_ADD_JOURNAL_DIR"];
  const saved = new Map(names.map((name) => [name, process.env[name]]));
  for (const name of names) delete process.env[name];
  const journal = mkdtempSync(path.join(tmpdir(), "plugin-test-journal-"));
  process.env.EMBEDDED_ADD_JOURNAL_DIR = journal;
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(journal, { recursive: true, force: true });
  };
}

/** Back to a fresh process's provider state (no settings, no caches, no shared clients). */
export async function resetRuntime(): Promise<void> {
  configureRuntime(noConfig);
  await closeClients();
}

/** What a plugin suite's hooks made: its service, and the plugin of the running test. */
export interface PluginFixture {
  service: LocalService;
  /** The test's plugin, started and configured before it, closed after it. */
  plugin: Plugin;
  /** The first customer's first and second sub-accounts. */
  accountId: string;
  otherAccountId: string;
}

/**
 * The hooks of a plugin suite: the environment isolated and one local service for the suite;
 * before each test the service reset and a fresh runtime and plugin, configured for the first
 * customer's first sub-account (with `settings` added). Call it in a `describe`; the fields
 * are set once the hooks have run.
 */
export function usePluginFixture(settings: Props = {}): PluginFixture {
  const fx = {} as PluginFixture;
  let restore: () => void;
  before(async () => {
    restore = isolateEnvironment();
    fx.service = await startLocalService();
    [fx.accountId, fx.otherAccountId] = fx.service.customers[0].subAccountIds;
  });
  beforeEach(async () => {
    await fx.service.reset();
    await resetRuntime();
    fx.plugin = await Plugin.start();
    const customer = fx.service.customers[0];
    await fx.plugin.configure({
      baseUrl: fx.service.baseUrl,
      clientId: customer.clientId,
      clientSecret: secret(customer.clientSecret),
      accountId: fx.accountId,
      ...settings,
    });
  });
  afterEach(() => fx.plugin.close());
  after(async () => {
    await resetRuntime();
    await fx.service.stop();
    restore();
  });
  return fx;
}

/** An engine that only records Log calls (what the user sees under a resource). */
export async function startFakeEngine(): Promise<{
  address: string;
  logs: { severity: number; message: string; urn: string }[];
  stop(): void;
}> {
  const logs: { severity: number; message: string; urn: string }[] = [];
  const server = new grpc.Server();
  server.addService(EngineService, {
    log: (call: grpc.ServerUnaryCall<LogRequest, Empty>, callback: grpc.sendUnaryData<Empty>) => {
      logs.push({
        severity: call.request.getSeverity(),
        message: call.request.getMessage(),
        urn: call.request.getUrn(),
      });
      callback(null, new Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  return { address: `127.0.0.1:${port}`, logs, stop: () => server.forceShutdown() };
}

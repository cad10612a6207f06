// What the e2e suites share besides the engine: the local service with its log
// captured, the seeded catalogue by name, an out-of-band HTTP client (the
// "second client" a colleague or a console would be), and the stack of the
// connectors program wired to the service.
import { strict as assert } from "node:assert";
import { Writable } from "node:stream";
import { CATALOGUE } from "../../service/seed/catalogue";
import { startLocalService, type BuildAppOptions, type LocalService, type Stats } from "../../harness/local-service";
import { E2EStack, ensureEngine, type ProgramConfigValue, type ServiceSettings } from "./harness";
import { routeKey } from "../../contract/routes";

/** The local service of one suite, with every line of its log kept. */
export interface E2EService {
  service: LocalService;
  /** Everything the service logged (pino JSON lines, level trace). */
  logs: string[];
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The first sub-account of the first customer: the stacks' `embedded:accountId`. */
  accountId: string;
  /** A second sub-account of the same customer. */
  otherAccountId: string;
  outOfBand: OutOfBandClient;
}

/** Starts the service on an ephemeral loopback port with its log captured. */
export async function startService(options: Partial<BuildAppOptions> = {}): Promise<E2EService> {
  const logs: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const service = await startLocalService({ ...options, logger: { level: "trace", stream } });
  const customer = service.customers[0];
  const e2e: E2EService = {
    service,
    logs,
    baseUrl: service.baseUrl,
    clientId: customer.clientId,
    clientSecret: customer.clientSecret,
    accountId: customer.subAccountIds[0],
    otherAccountId: customer.subAccountIds[1],
    outOfBand: new OutOfBandClient(service.baseUrl, customer.clientId, customer.clientSecret),
  };
  return e2e;
}

/** What a suite's `before` made: its service and, in most suites, one stack. */
export interface E2ESuite {
  svc: E2EService;
  stack: E2EStack;
}

export interface E2ESuiteOptions {
  /** Options of the local service (a fixed client secret, faults, a token lifetime). */
  service?: Partial<BuildAppOptions>;
  /** The suite's one stack; a suite without one makes its stacks itself. */
  stack?: (svc: E2EService) => Promise<E2EStack>;
  /** Runs after the stack is made: out-of-band set-up, a first `up`. */
  setUp?: (suite: E2ESuite) => Promise<void>;
  /** Runs first in `after`, while the service still runs: what the tests left outside the stack. */
  tearDown?: (suite: E2ESuite) => Promise<void>;
  /** false: the stack is removed without an engine run to destroy its resources. */
  destroy?: boolean;
}

/**
 * The before/after of an e2e suite: the engine, a service with its log captured and the
 * suite's stack, then teardown (stack destroyed and removed, service stopped). Call it in a
 * `describe`; its fields are set once `before` has run. (A suite several files share:
 * shared-setup.ts with makeSuite and endSuite.)
 */
export function e2eSuite(options: E2ESuiteOptions = {}): E2ESuite {
  const made: Partial<E2ESuite> = {};
  before(async function () {
    this.timeout(30 * 60_000); // a cold engine build
    await makeSuite(options, made);
  });
  after(async function () {
    await endSuite(options, made);
  });
  return made as E2ESuite;
}

/** The set-up of e2eSuite, filling `made` as it goes. */
export async function makeSuite(options: E2ESuiteOptions, made: Partial<E2ESuite>): Promise<void> {
  await ensureEngine();
  made.svc = await startService(options.service);
  if (options.stack) made.stack = await options.stack(made.svc);
  await options.setUp?.(made as E2ESuite);
}

/** The teardown of e2eSuite: whatever `made` holds. */
export async function endSuite(options: E2ESuiteOptions, made: Partial<E2ESuite>): Promise<void> {
  try {
    if (made.svc) await options.tearDown?.(made as E2ESuite);
  } finally {
    await made.stack?.dispose({ destroy: options.destroy });
    await made.svc?.service.stop();
  }
}

/** The id of the seeded catalogue connector of that exact name. */
export function connectorId(name: string): string {
  const found = CATALOGUE.find((c) => c.name === name);
  if (!found) {
    throw new Error(`no seeded connector named ${name}`);
  }
  return found.connectorId;
}

/** The stack config `embedded:*` of `svc`'s first customer's first sub-account. */
export function serviceSettings(svc: E2EService): ServiceSettings {
  return { baseUrl: svc.baseUrl, clientId: svc.clientId, clientSecret: svc.clientSecret, accountId: svc.accountId };
}

/** The stack of programs/connectors, configured for `svc`. */
export function connectorsStack(
  svc: E2EService,
  name: string,
  config: Record<string, ProgramConfigValue> = {},
  secretConfig: Record<string, ProgramConfigValue> = {},
): Promise<E2EStack> {
  return E2EStack.create({
    program: "connectors",
    name,
    service: serviceSettings(svc),
    config,
    secretConfig,
  });
}

/** The routes that change something on the service (stats keys). */
export const MUTATING_ROUTES = [routeKey("addConnectors"), routeKey("configure"), routeKey("removeConnector")];

/** How many requests reached the mutating routes (any status). */
export function mutatingCalls(stats: Stats): number {
  let total = 0;
  for (const route of MUTATING_ROUTES) {
    for (const count of Object.values(stats.byRoute[route] ?? {})) {
      total += count;
    }
  }
  return total;
}

/** View A of List Added Connectors, as far as the tests look at it. */
export interface AddedView {
  connectorId: string;
  name: string;
  configured: boolean;
  srcConnections: number;
  destConnections: number;
  [field: string]: unknown;
}

export interface ConfigurationView {
  configured: boolean;
  lastUpdated: number;
  configuration: { id: string; type: string; value?: unknown }[];
  [field: string]: unknown;
}

interface Envelope<T> {
  statusCode: number;
  statusMessage: string;
  response: T;
}

/**
 * A client of the service's public HTTP API written for the tests, sharing no
 * code with the provider: what changes the service "out of band".
 */
export class OutOfBandClient {
  private token?: string;

  constructor(
    private readonly baseUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  private async getToken(): Promise<string> {
    const res = await fetch(`${this.baseUrl}/es/v2/oauth/client-token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ clientId: this.clientId, clientSecret: this.clientSecret }),
    });
    assert.equal(res.status, 200, "out-of-band token request");
    const body = (await res.json()) as { accessToken?: string; response?: { accessToken: string } };
    const token = body.accessToken ?? body.response?.accessToken;
    assert.ok(token, "out-of-band token");
    return token;
  }

  /** One call; a 401 (expired token) is retried once with a new token. */
  async request<T>(
    method: string,
    path: string,
    accountId: string,
    body?: object,
  ): Promise<{ status: number; response: T }> {
    for (let attempt = 0; ; attempt++) {
      this.token ??= await this.getToken();
      const url = `${this.baseUrl}${path}${path.includes("?") ? "&" : "?"}accountId=${encodeURIComponent(accountId)}`;
      const res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (res.status === 401 && attempt === 0) {
        this.token = undefined;
        continue;
      }
      const envelope = (await res.json()) as Envelope<T>;
      return { status: res.status, response: envelope.response };
    }
  }

  private async ok<T>(method: string, path: string, accountId: string, body?: object): Promise<T> {
    const { status, response } = await this.request<T>(method, path, accountId, body);
    assert.equal(status, 200, `out-of-band ${method} ${path}`);
    return response;
  }

  async listAdded(accountId: string): Promise<AddedView[]> {
    const items: AddedView[] = [];
    for (let page = 1; ; page++) {
      const res = await this.ok<{ items: AddedView[]; total: number }>(
        "GET",
        `/es/v2/connectors/added?page=${page}&pageSize=200`,
        accountId,
      );
      items.push(...res.items);
      if (res.items.length === 0 || items.length >= res.total) {
        return items;
      }
    }
  }

  async addedIds(accountId: string): Promise<string[]> {
    return (await this.listAdded(accountId)).map((c) => c.connectorId).sort();
  }

  async add(accountId: string, connectorIds: string[]): Promise<void> {
    await this.ok("POST", "/es/v2/connectors", accountId, { connectorIds });
  }

  async remove(accountId: string, connectorId: string): Promise<void> {
    await this.ok("DELETE", `/es/v2/connectors/${connectorId}`, accountId);
  }

  async getConfiguration(accountId: string, connectorId: string): Promise<ConfigurationView> {
    return this.ok<ConfigurationView>("GET", `/es/v2/connectors/${connectorId}/configuration`, accountId);
  }

  /** Configure with the connector's own configurationId. */
  async configure(
    accountId: string,
    connectorId: string,
    secretConfig: Record<string, unknown>,
  ): Promise<ConfigurationView> {
    const current = await this.getConfiguration(accountId, connectorId);
    const secret = (current.secretConfig as { configurationId: string }[])[0];
    return this.ok<ConfigurationView>("PUT", `/es/v2/connectors/${connectorId}/configuration`, accountId, {
      configurationId: secret.configurationId,
      secretConfig,
    });
  }
}

/** The value of a non-Password field as the service returns it. */
export function fieldValue(view: ConfigurationView, fieldId: string): unknown {
  return view.configuration.find((f) => f.id === fieldId)?.value;
}

// The connectors the suites use (seeded catalogue names; their fields are set
// by kind in service/seed/catalogue.ts).
/** Source, API-key fields: apiKey (Password), workspace, dataCenter, batchSize (Number 1..10000), … */
export const SEGMENT = connectorId("Segment");
/** Source, API-key fields, like Segment. */
export const MIXPANEL = connectorId("Mixpanel");
/** Source, storage fields: bucket, accessKeyId, secretAccessKey (Password), region, … */
export const S3 = connectorId("Amazon S3");
/** Destination, OAuth fields; pairs with S3 (a data store pairs with everything). */
export const FACEBOOK = connectorId("Facebook Custom Audiences");

/** A valid secretConfig of an API-key connector (apiKey left to the caller). */
export function apiKeyFields(overrides: Record<string, ProgramConfigValue> = {}): Record<string, ProgramConfigValue> {
  return { workspace: "acme", dataCenter: "EU", batchSize: 500, eventTypes: ["track", "identify"], ...overrides };
}

/** A valid secretConfig of a storage connector (secretAccessKey left to the caller). */
export function storageFields(overrides: Record<string, ProgramConfigValue> = {}): Record<string, ProgramConfigValue> {
  return { bucket: "acme-exports", accessKeyId: "AKIAE2EEXAMPLE", region: "eu-west-1", ...overrides };
}

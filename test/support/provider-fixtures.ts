// Shared set-up of the provider tests: a local service, the provider runtime pointed at it,
// the seeded connector ids, and request counts from the service's stats.
import * as pulumi from "@pulumi/pulumi";
import { getClient, type EmbeddedClient } from "../../provider/client";
import { configureRuntime, runtime } from "../../provider/runtime/runtime";
import { configSourceFromGetter, resolveSettings, SETTINGS, toClientSettings } from "../../provider/settings/resolve";
import { stableId } from "../../service/domain/ids";
import { startLocalService, type LocalService, type Stats } from "../../harness/local-service";

/** Seeded catalogue connectors (ids are hashes of the names, as the seed makes them). */
export const CONNECTORS = {
  segment: stableId("connector", "Segment"), // Source, events, API-key fields
  tiktokEvents: stableId("connector", "TikTok Events API"), // Destination, events
  amplitude: stableId("connector", "Amplitude"),
} as const;

/** A valid secretConfig of an API-key connector such as Segment. */
export const SEGMENT_CONFIG = {
  apiKey: "s3cr3t-api-key-value",
  workspace: "acme",
  dataCenter: "EU",
  eventTypes: ["page", "track"],
  batchSize: 100,
};

export interface ProviderFixture {
  service: LocalService;
  accountId: string;
  otherAccountId: string;
  client: EmbeddedClient;
  /** Stack config as the provider's configure() would see it. */
  config: Record<string, string | undefined>;
}

export async function startFixture(): Promise<ProviderFixture> {
  // The environment must not leak settings into tests of the config-then-env rules.
  for (const setting of Object.values(SETTINGS)) delete process.env[setting.env];
  const service = await startLocalService();
  const customer = service.customers[0];
  const config = {
    "embedded:baseUrl": service.baseUrl,
    "embedded:clientId": customer.clientId,
    "embedded:clientSecret": customer.clientSecret,
    "embedded:accountId": customer.subAccountIds[0],
  };
  const source = configSourceFromGetter({ get: (key) => config[key as keyof typeof config] });
  const client = getClient(toClientSettings(resolveSettings(source)));
  const fixture = {
    service,
    accountId: customer.subAccountIds[0],
    otherAccountId: customer.subAccountIds[1],
    client,
    config,
  };
  useConfig(fixture);
  return fixture;
}

/**
 * The hooks of a provider suite: one local service for the suite; before each test the service
 * is reset and the runtime points at it afresh. Call it in a `describe`; the fixture's fields
 * are set once `before` has run.
 */
export function useProviderFixture(): ProviderFixture {
  const fx = {} as ProviderFixture;
  before(async () => {
    Object.assign(fx, await startFixture());
  });
  after(async () => fx.service.stop());
  beforeEach(async () => {
    await fx.service.reset();
    useConfig(fx);
  });
  return fx;
}

/**
 * The hooks of a lookup suite (the program process's lookups read the stack config): one local
 * service for the suite, its settings as the program's stack config `embedded:*` while the
 * suite runs. Call it in a `describe`; the fixture's fields are set once `before` has run.
 */
export function useLookupFixture(): ProviderFixture {
  const fx = {} as ProviderFixture;
  before(async () => {
    Object.assign(fx, await startFixture());
    const config: Record<string, string> = {};
    for (const [key, value] of Object.entries(fx.config)) if (value !== undefined) config[key] = value;
    pulumi.runtime.setAllConfig({ ...pulumi.runtime.allConfig(), ...config });
  });
  after(async () => {
    pulumi.runtime.setAllConfig(
      Object.fromEntries(Object.entries(pulumi.runtime.allConfig()).filter(([k]) => !k.startsWith("embedded:"))),
    );
    await fx.service.stop();
  });
  return fx;
}

/** Points the provider runtime at the fixture's config, with overrides (undefined = unset). */
export function useConfig(
  fixture: ProviderFixture,
  overrides: Record<string, string | undefined> = {},
  clientOverride?: EmbeddedClient,
): void {
  const merged: Record<string, string | undefined> = { ...fixture.config, ...overrides };
  configureRuntime(configSourceFromGetter({ get: (key) => merged[key] }), clientOverride);
}

/** Captures the provider's warnings instead of writing them to stderr. */
export function captureWarnings(): string[] {
  const warnings: string[] = [];
  runtime().warn = (message) => warnings.push(message);
  return warnings;
}

/** Requests to one route ("METHOD /pattern"), whatever their status. */
export function callsTo(stats: Stats, route: string): number {
  return Object.values(stats.byRoute[route] ?? {}).reduce((sum, n) => sum + n, 0);
}

/** Requests that can change the service: POST, PUT and DELETE on the connectors routes. */
export function mutatingCalls(stats: Stats): number {
  return Object.keys(stats.byRoute)
    .filter((route) => /^(POST|PUT|DELETE) \/es\//.test(route) && !route.includes("oauth"))
    .reduce((sum, route) => sum + callsTo(stats, route), 0);
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error("expected a rejection, but the promise resolved");
}

/**
 * Asserts that a delete guard's refusal names Segment in use by one source connection (its name,
 * id, sub-account and counts), and each of `more` (what that guard tells the user to do).
 */
export function assertSegmentInUse(message: string, accountId: string, more: string[]): void {
  for (const part of ['"Segment"', CONNECTORS.segment, accountId, "srcConnections=1", "destConnections=0", ...more]) {
    if (!message.includes(part)) throw new Error(`message lacks ${part}: ${message}`);
  }
}

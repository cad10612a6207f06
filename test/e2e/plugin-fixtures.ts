// What the plugin suites (plugin-*.test.ts) share: the stack of programs/plugin wired to a
// service, the seeded customers as the program's explicit providers see them, the engine's
// failed runs as the user sees them (stdout and stderr once each), and the service's stats.
import { strict as assert } from "node:assert";
import { E2EStack, type ProgramConfigValue, type ServiceSettings } from "./harness";
import { OutOfBandClient, type E2EService } from "./fixtures";
import type { Stats } from "../../harness/local-service";
import { routeKey } from "../../contract/routes";

/** The plugin's type tokens (the state's `type` of its resources). */
export const ADDED_CONNECTOR_TYPE = "embedded:index:AddedConnector";
export const CONFIGURATION_TYPE = "embedded:index:ConnectorConfiguration";
/** The type of the plugin's providers (default and explicit) in the state. */
export const PROVIDER_TYPE = "pulumi:providers:embedded";

/** The Add route's stats key. */
export const ADD_ROUTE = routeKey("addConnectors");
export const CONFIGURE_ROUTE = routeKey("configure");

/** One seeded customer of a service, with an out-of-band client of its own. */
export interface Customer {
  clientId: string;
  clientSecret: string;
  /** Its first sub-account. */
  accountId: string;
  outOfBand: OutOfBandClient;
}

/** Customer `index` (0: the first, 1: the second) of the seeded service. */
export function customer(svc: E2EService, index: number): Customer {
  const seeded = svc.service.customers[index];
  assert.ok(seeded, `the service has a customer ${index + 1}`);
  return {
    clientId: seeded.clientId,
    clientSecret: seeded.clientSecret,
    accountId: seeded.subAccountIds[0],
    outOfBand: index === 0 ? svc.outOfBand : new OutOfBandClient(svc.baseUrl, seeded.clientId, seeded.clientSecret),
  };
}

export interface PluginStackOptions {
  /** The stack config `embedded:*` of the default provider (default: the first customer's first sub-account); null: none. */
  service?: ServiceSettings | null;
  config?: Record<string, ProgramConfigValue>;
  secretConfig?: Record<string, ProgramConfigValue>;
  env?: Record<string, string>;
}

/** The stack of programs/plugin; by default its default provider is the first customer's first sub-account. */
export function pluginStack(svc: E2EService, name: string, options: PluginStackOptions = {}): Promise<E2EStack> {
  return E2EStack.create({
    program: "plugin",
    name,
    service:
      options.service === null
        ? undefined
        : (options.service ?? {
            baseUrl: svc.baseUrl,
            clientId: svc.clientId,
            clientSecret: svc.clientSecret,
            accountId: svc.accountId,
          }),
    config: options.config,
    secretConfig: options.secretConfig,
    env: options.env,
  });
}

/** What a failed engine run printed: its own stdout and stderr, each once. */
export interface Failure {
  stdout: string;
  stderr: string;
  /** stdout and stderr together (what the user's terminal showed). */
  printed: string;
}

type Streams = { stdout?: unknown; stderr?: unknown };

/**
 * The engine's stdout and stderr from a failed run: an Automation API CommandError keeps them
 * on the execa error it wraps (its own stdout is empty then); an execFile error holds them.
 */
function outputsOf(err: unknown): Failure | undefined {
  const holder = err as (Streams & { commandResult?: Streams & { err?: Streams } }) | null;
  for (const source of [holder?.commandResult?.err, holder?.commandResult, holder]) {
    if (source && typeof source.stdout === "string" && typeof source.stderr === "string" && source.stdout !== "") {
      return { stdout: source.stdout, stderr: source.stderr, printed: `${source.stdout}\n${source.stderr}` };
    }
  }
  return undefined;
}

/**
 * Runs an engine operation that must fail; returns what the engine printed, once (the
 * harness's expectFailure returns the error's text, which repeats stdout and stderr).
 */
export async function engineFailure(op: () => Promise<unknown>): Promise<Failure> {
  let failure: Failure | undefined;
  try {
    await op();
  } catch (err) {
    failure = outputsOf(err);
    if (!failure) {
      throw err;
    }
  }
  if (!failure) {
    throw new Error("expected the engine run to fail, but it succeeded");
  }
  return failure;
}

/** How many times `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  assert.ok(needle.length > 0, "a needle to count");
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    count++;
  }
  return count;
}

/**
 * The Diagnostics section of an engine run's output, by resource (`<type> (<name>)`): each
 * diagnostic the engine received once. (The progress rows above it repeat a resource's latest
 * diagnostic at each of its state changes: that is the engine's display, not a second report.)
 */
export function diagnostics(printed: string): Map<string, string> {
  const start = printed.search(/^Diagnostics:$/m);
  assert.ok(start >= 0, `a Diagnostics section in:\n${printed}`);
  const rest = printed.slice(start).replace(/^Diagnostics:\n/, "");
  const end = rest.search(/^\S/m);
  const section = end >= 0 ? rest.slice(0, end) : rest;
  const blocks = new Map<string, string>();
  const heading = /^ {2}(\S.*):$/gm;
  const heads = [...section.matchAll(heading)];
  heads.forEach((head, i) => {
    const from = (head.index ?? 0) + head[0].length;
    const to = i + 1 < heads.length ? heads[i + 1].index : section.length;
    blocks.set(head[1], section.slice(from, to));
  });
  return blocks;
}

/** A frame of a JavaScript stack trace (`    at fn (file.js:1:2)` or `    at file.js:1:2`). */
export const STACK_FRAME = /^\s+at (?:.+ \()?\S+:\d+:\d+\)?$/m;

/** How many requests reached `route` (any status). */
export function callsTo(stats: Stats, route: string): number {
  return Object.values(stats.byRoute[route] ?? {}).reduce((sum, n) => sum + n, 0);
}

/** Every non-Password field value as the service returns it (through any customer's client). */
export async function liveValues(
  client: OutOfBandClient,
  accountId: string,
  connectorId: string,
): Promise<Record<string, unknown>> {
  const view = await client.getConfiguration(accountId, connectorId);
  return Object.fromEntries(view.configuration.filter((f) => f.value !== undefined).map((f) => [f.id, f.value]));
}

/**
 * A value of `stack.resources()` (an export with --show-secrets) as the program sees it: a
 * secret there is `{ <sig>, plaintext: "<JSON>" }`, shown but still wrapped.
 */
export function revealed(value: unknown): unknown {
  if (value && typeof value === "object" && "plaintext" in value && typeof value.plaintext === "string") {
    return JSON.parse(value.plaintext) as unknown;
  }
  return value;
}

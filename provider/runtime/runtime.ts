// The provider process's scope (either host), owned here alone: where its settings come from (the
// stack config handed to configure(), a provider's arguments, or a scope of withConfig), the client
// they resolve to, which host runs it and where its warnings go, and the stack it serves (with its
// pending-write records). Each resource's own machinery lives with the resource (its process.ts),
// made through process-local.ts. The hosts set the scope through the use* functions. The object
// lives on globalThis so that two copies of the module (symlinked install, relative import in
// tests) still share one state, and so one client/token per process.
import { AsyncLocalStorage } from "node:async_hooks";
import { clientRegistry, getClient, type EmbeddedClient } from "../client";
import { AddJournal, defaultJournalDir } from "./pending-writes";
import { useBaselineWasmCompiler } from "./baseline-wasm";
import { resetProcessLocals } from "./process-local";
import {
  configSourceFromGetter,
  noConfig,
  rawSettingsKey,
  resolveAccountId,
  resolveSettings,
  toClientSettings,
  type ConfigSource,
  type ProviderSettings,
  type SettingName,
} from "../settings/resolve";
import { settingOrigins, type SettingOrigin } from "../settings/sources";

/** Which host runs the provider: the advice differs (only the plugin's resources can be imported). */
export type ProviderHost = "dynamic" | "plugin";

export interface ProviderRuntime {
  /** Stack config from configure(); environment variables are consulted at call time. */
  config: ConfigSource;
  /** The stack (`project/stack`) whose program serialized the provider; "" when unknown. */
  owner: string;
  /** The pending-Add journal (add-journal.ts) of `owner`; none when the stack is unknown. */
  journal?: AddJournal;
  /** Which host runs the provider (the dynamic-provider process, or the plugin `embedded`). */
  host: ProviderHost;
  /**
   * Where warnings go, about the resource `urn` when the host knows it (the plugin); the
   * dynamic-provider process has no pulumi.log, so stderr by default.
   */
  warn: (message: string, urn?: string) => void;
  /** What warnOnce said already. */
  said?: Set<string>;
  /**
   * A settings source for the operations started inside withConfig (the fleet's drift check runs
   * several customers' reads at once in one process), with each one's resolved client.
   */
  scope: AsyncLocalStorage<ConfigSource>;
  scoped: WeakMap<
    ConfigSource,
    { key: string; generation: number; settings: ProviderSettings; client: EmbeddedClient }
  >;
  /** Tests only: a client to use instead of getClient(settings). */
  clientOverride?: EmbeddedClient;
  /** The last resolved settings and client, and what they were resolved from (rawSettingsKey). */
  current?: {
    key: string;
    config: ConfigSource;
    override?: EmbeddedClient;
    generation: number;
    settings: ProviderSettings;
    client: EmbeddedClient;
  };
}

const KEY = Symbol.for("pulumi-embedded-connectors/provider-runtime");
type Holder = { [KEY]?: ProviderRuntime };

/** The first use in a process. */
function fresh(): ProviderRuntime {
  return {
    config: noConfig,
    owner: "",
    host: "dynamic",
    warn: (message) => console.error(`warning: ${message}`),
    scope: new AsyncLocalStorage(),
    scoped: new WeakMap(),
  };
}

export function runtime(): ProviderRuntime {
  const holder = globalThis as Holder;
  holder[KEY] ??= fresh();
  return holder[KEY];
}

/** What the dynamic provider's configure() receives: `req.config.get("embedded:baseUrl")`. */
export interface ConfigureRequestLike {
  config: { get(key: string): unknown };
}

/** Stores the stack config (secrets arrive unwrapped; read again at every call) and the stack. */
export function configureFromRequest(req: ConfigureRequestLike, owner = ""): void {
  useBaselineWasmCompiler(); // configure() is the dynamic-provider process's first call
  useConfig(configSourceFromGetter(req.config));
  useOwner(owner);
}

/** The settings source of this process's configure() (either host); read again at every call. */
export function useConfig(config: ConfigSource): void {
  runtime().config = config;
}

/** The host that runs the provider, and where its warnings go (the plugin: the engine's log). */
export function useHost(host: ProviderHost, warn: ProviderRuntime["warn"]): void {
  const state = runtime();
  state.host = host;
  state.warn = warn;
}

/** The stack whose resources this process handles; its journal lives in defaultJournalDir(). */
export function useOwner(owner: string, journalDir = defaultJournalDir()): void {
  const state = runtime();
  if (owner === state.owner && state.journal?.dir === journalDir) return;
  // The provider string of a resource in an old state may carry no owner (or an older
  // name): it must not switch off or change the journal of the stack this process serves.
  if (state.journal && state.journal.dir === journalDir && (owner === "" || state.owner !== "")) return;
  state.owner = owner;
  state.journal = owner ? new AddJournal(journalDir, owner, (message) => state.warn(message)) : undefined;
}

/** Tests: replaces the config source and the client, and empties every resource's caches (process-local.ts). */
export function configureRuntime(config: ConfigSource, clientOverride?: EmbeddedClient): void {
  const state = runtime();
  state.config = config;
  state.clientOverride = clientOverride;
  resetProcessLocals();
  state.owner = "";
  state.journal = undefined;
}

/**
 * The client and settings of this call. Every operation asks (the environment may have
 * changed since the last), so the answer is kept until what the settings are read from
 * changes: resolving and looking up the client at each of a refresh's hundreds of reads was
 * a measurable share of its cost (bench/analysis.md).
 */
export function currentClient(): { client: EmbeddedClient; settings: ProviderSettings } {
  const state = runtime();
  const inScope = state.scope.getStore();
  if (inScope) {
    const found = state.scoped.get(inScope);
    const key = rawSettingsKey(inScope);
    if (found && found.key === key && found.generation === clientRegistry.generation) return found;
    const settings = resolveSettings(inScope);
    const client = getClient(toClientSettings(settings));
    state.scoped.set(inScope, { key, generation: clientRegistry.generation, settings, client });
    return { client, settings };
  }
  const key = rawSettingsKey(state.config);
  const kept = state.current;
  const generation = clientRegistry.generation;
  if (
    kept &&
    kept.key === key &&
    kept.config === state.config &&
    kept.override === state.clientOverride &&
    kept.generation === generation
  ) {
    return { client: kept.client, settings: kept.settings };
  }
  const settings = resolveSettings(state.config);
  const client = state.clientOverride ?? getClient(toClientSettings(settings));
  state.current = { key, config: state.config, override: state.clientOverride, generation, settings, client };
  return { client, settings };
}

/** Where each of this call's settings came from (settings/sources.ts): what `doctor` and the commands report alike. */
export function currentSettingOrigins(): Record<SettingName, SettingOrigin> {
  const state = runtime();
  return settingOrigins(state.scope.getStore() ?? state.config);
}

/** The resource's accountId, else the default sub-account setting. */
export function accountIdFor(explicit: string | undefined): string {
  const state = runtime();
  return resolveAccountId(explicit, state.scope.getStore() ?? state.config);
}

/**
 * Runs `operation` with `config` as the settings source of every provider operation it starts
 * (theirs alone: other operations keep the process's). One process can so serve several
 * providers' resources at once, each with its own client: the fleet's drift check.
 */
export function withConfig<T>(config: ConfigSource, operation: () => Promise<T>): Promise<T> {
  return runtime().scope.run(config, operation);
}

/** Says `message` once per process for `key` (a behaviour of the service, not of one resource). */
export function warnOnce(key: string, message: string): void {
  const said = (runtime().said ??= new Set());
  if (said.has(key)) return;
  said.add(key);
  runtime().warn(message);
}

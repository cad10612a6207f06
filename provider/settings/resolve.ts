// Provider settings: stack config namespace `embedded`, then EMBEDDED_* environment
// variables, then defaults (docs/DESIGN.md, "Provider settings"). This module is pure
// (no @pulumi/pulumi import) so that the dynamic-provider process can load it cheaply. The
// settings themselves are declared in settings/table.ts.
import { X509Certificate } from "node:crypto";
import type { ClientSettings } from "../client/client-settings";
import { isLoopbackHost, parseBaseUrl } from "../client/validation";
import { loadProfile, ProfileError } from "../../contract/profile";
import type { ResolvedProfile } from "../../contract/profile-types";
import { SETTINGS, type SettingName } from "./table";

export { DEFAULT_ADD_WINDOW_MS, SETTINGS, type SettingName } from "./table";

/** Where stack config values come from: returns the raw value of `embedded:<name>`, if set. */
export type ConfigSource = (name: SettingName) => string | undefined;

export interface ProviderSettings {
  /** Base URL of the service. Required. Plain http only to a loopback host. */
  baseUrl: string;
  /** OAuth client id. Required. */
  clientId: string;
  /** OAuth client secret. Required; never printed. */
  clientSecret: string;
  /** Key material of the dynamic provider's field digests (connector-configuration/digest-salt.ts). Default: none. */
  digestKey?: string;
  /** Default sub-account for resources and lookups that do not name one. Default: none. */
  accountId?: string;
  /**
   * Longest wait for an answer's headers, and longest pause between two chunks of its body
   * (undici's headersTimeout and bodyTimeout), milliseconds; not a cap on a whole request,
   * whose body may take longer while it keeps arriving. Default: 30000.
   */
  timeoutMs: number;
  /** Retries after the first attempt of a call that failed with a transient fault (5xx, no answer). Default: 5. */
  maxRetries: number;
  /**
   * How long one call may keep waiting in all when the service says when to come back (429,
   * or 503 with Retry-After), milliseconds; such answers do not count against maxRetries.
   * Default: 600000 (10 minutes).
   */
  retryTimeoutMs: number;
  /** Requests in flight per process, base URL and client id (one customer's requests never wait for another's). Default: 8. */
  concurrency: number;
  /**
   * How long the first create of a sub-account waits at most for others to share its Add
   * call, milliseconds; 0 sends every Add alone. Default: 500 (DEFAULT_ADD_WINDOW_MS).
   */
  addWindowMs: number;
  /** PEM certificate of a private CA. Default: none (system CAs). */
  caCertificate?: string;
  /** Path of a JSON or YAML service profile (docs/service-profile.md). Default: none (the built-in profile). */
  serviceProfile?: string;
  /** The profile read from serviceProfile; undefined for the built-in one. */
  profile?: ResolvedProfile;
}

/** A missing or invalid setting; the message names the config key and the environment variable. */
export class SettingsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SettingsError";
  }
}

/** No stack config at all: only the environment counts. */
export const noConfig: ConfigSource = () => undefined;

/**
 * Adapts anything with `get(fullKey)` — the dynamic provider's `configure()` request config
 * (keys like "embedded:baseUrl"), or a plain map — into a ConfigSource.
 */
export function configSourceFromGetter(config: { get(key: string): unknown }): ConfigSource {
  return (name) => asText(config.get(SETTINGS[name].key));
}

/** Adapts a `new pulumi.Config("embedded")` (keys without the namespace) into a ConfigSource. */
export function configSourceFromNamespace(config: { get(key: string): string | undefined }): ConfigSource {
  return (name) => asText(config.get(name));
}

// Config values arrive as strings, but a structured stack value could be a number.
function asText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === "string" ? value : String(value);
  return text.trim() === "" ? undefined : text;
}

/** A setting's raw value: the source's, else its environment variable's (every reader's one order). */
export function settingValue(name: SettingName, config: ConfigSource, env: NodeJS.ProcessEnv): string | undefined {
  return config(name) ?? asText(env[SETTINGS[name].env]);
}
const lookup = settingValue;

/** Where a setting is read, as every message names it: `embedded:baseUrl (or EMBEDDED_BASE_URL)`. */
export function where(name: SettingName): string {
  return `${SETTINGS[name].key} (or ${SETTINGS[name].env})`;
}

function required(name: SettingName, config: ConfigSource, env: NodeJS.ProcessEnv): string {
  const value = lookup(name, config, env);
  if (value === undefined) {
    const how = SETTINGS[name].secret
      ? `pulumi config set --secret ${SETTINGS[name].key} <value>`
      : `pulumi config set ${SETTINGS[name].key} <value>`;
    throw new SettingsError(`missing ${where(name)}: set it with \`${how}\` or export ${SETTINGS[name].env}`);
  }
  return value;
}

/** The integer settings: each with its default and its smallest accepted value. */
type IntegerSetting = { [K in SettingName]: (typeof SETTINGS)[K] extends { type: "integer" } ? K : never }[SettingName];
const INTEGER_SETTINGS = Object.keys(SETTINGS).filter(
  (name) => SETTINGS[name as SettingName].type === "integer",
) as IntegerSetting[];

function integerSetting(name: IntegerSetting, config: ConfigSource, env: NodeJS.ProcessEnv): number {
  const { default: fallback, min } = SETTINGS[name];
  const raw = lookup(name, config, env);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    // Never the value: an explicit provider's argument may be a secret the engine does not mark.
    const got = Number.isInteger(value) ? `an integer below ${min}` : "a value that is not an integer";
    throw new SettingsError(`invalid ${where(name)}: expected an integer >= ${min}, got ${got}`);
  }
  return value;
}

/**
 * The base URL, normalised, by the client's own rule (client/validation.ts parseBaseUrl: https,
 * or plain http only to a loopback host; no credentials, query or fragment), refused with the
 * setting's names. The refusal says which rule failed and never quotes the URL or a part of it
 * (the client's text names its scheme or host): an explicit provider's argument may be a
 * secret the engine does not mark as one (docs/secrets.md).
 */
export function checkBaseUrl(baseUrl: string): string {
  try {
    return parseBaseUrl(baseUrl).normalized;
  } catch {
    throw new SettingsError(`invalid ${where("baseUrl")}: ${baseUrlRuleBroken(baseUrl)}`);
  }
}

/** Which of parseBaseUrl's rules the URL breaks, in words that hold none of it. */
function baseUrlRuleBroken(baseUrl: string): string {
  const url = URL.canParse(baseUrl) ? new URL(baseUrl) : undefined;
  if (!url) return "it is not an absolute URL (expected https://<host>[/<path>])";
  if (url.protocol !== "https:" && url.protocol !== "http:") return "its scheme is not https://";
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    return (
      "refusing plain http:// to a host that is not loopback: credentials and tokens would travel in clear. " +
      "Use https://, or http:// only to a loopback host (localhost, 127.0.0.0/8, ::1)"
    );
  }
  if (url.username !== "" || url.password !== "") return "it holds credentials; pass clientId and clientSecret";
  if (url.search !== "" || url.hash !== "") return "it holds a query or a fragment";
  return "the client refuses it";
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * The private CA, parsed now rather than at the first TLS handshake, whose error names neither
 * the setting nor what is wrong with it. A bundle of several certificates is accepted; the
 * messages never quote the value (a long PEM says nothing to a reader).
 */
export function checkCaCertificate(pem: string): string {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) {
    throw new SettingsError(
      `invalid ${where("caCertificate")}: expected the PEM text of a certificate (-----BEGIN CERTIFICATE----- … ` +
        `-----END CERTIFICATE-----), got text without one; to pass a file, use ` +
        `\`pulumi config set ${SETTINGS.caCertificate.key} -- "$(cat ca.pem)"\``,
    );
  }
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch (error) {
      const which = blocks.length === 1 ? "its certificate" : `certificate ${index + 1} of ${blocks.length}`;
      const reason = error instanceof Error ? error.message : String(error);
      throw new SettingsError(`invalid ${where("caCertificate")}: ${which} cannot be parsed as X.509 (${reason})`);
    }
  });
  return pem;
}

function optionalCaCertificate(config: ConfigSource, env: NodeJS.ProcessEnv): string | undefined {
  const pem = lookup("caCertificate", config, env);
  return pem === undefined ? undefined : checkCaCertificate(pem);
}

/** Fewest characters of embedded:digestKey: its entropy is what keeps a guess from being tested. */
const DIGEST_KEY_MIN_LENGTH = 32;

/** embedded:digestKey, refused when too short to be a random key (never quoted, nor its length). */
function optionalDigestKey(config: ConfigSource, env: NodeJS.ProcessEnv): string | undefined {
  const digestKey = lookup("digestKey", config, env);
  if (digestKey !== undefined && digestKey.length < DIGEST_KEY_MIN_LENGTH)
    throw new SettingsError(
      `invalid ${where("digestKey")}: expected at least ${DIGEST_KEY_MIN_LENGTH} random characters; set one with \`${SET_DIGEST_KEY}\``,
    );
  return digestKey;
}

/** The service profile the setting names, read and checked now; a bad file names the setting, the key and what was expected. */
export function optionalProfile(config: ConfigSource, env: NodeJS.ProcessEnv): ResolvedProfile | undefined {
  const file = lookup("serviceProfile", config, env);
  if (file === undefined) return undefined;
  try {
    return loadProfile(file);
  } catch (error) {
    if (!(error instanceof ProfileError)) throw error;
    // The problems only: the error's own text starts with the file's path, the setting's value.
    throw new SettingsError(`invalid ${where("serviceProfile")}: ${error.problems.join("; ")}`);
  }
}

/**
 * Everything resolveSettings reads, as one string: equal strings resolve to equal settings.
 * A provider resolves its settings at every call (the environment may change between them);
 * this lets it resolve them again only when something it reads changed.
 */
export function rawSettingsKey(config: ConfigSource, env: NodeJS.ProcessEnv = process.env): string {
  return (Object.keys(SETTINGS) as SettingName[]).map((name) => lookup(name, config, env) ?? "\u0001").join("\u0000");
}

/** Resolves every setting, config first, then environment, then defaults. Throws SettingsError. */
export function resolveSettings(config: ConfigSource, env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  return {
    baseUrl: checkBaseUrl(required("baseUrl", config, env)),
    clientId: required("clientId", config, env),
    clientSecret: required("clientSecret", config, env),
    digestKey: optionalDigestKey(config, env),
    accountId: lookup("accountId", config, env),
    timeoutMs: integerSetting("timeoutMs", config, env),
    maxRetries: integerSetting("maxRetries", config, env),
    retryTimeoutMs: integerSetting("retryTimeoutMs", config, env),
    concurrency: integerSetting("concurrency", config, env),
    addWindowMs: integerSetting("addWindowMs", config, env),
    caCertificate: optionalCaCertificate(config, env),
    ...profileSettings(config, env),
  };
}

/** serviceProfile and the profile it names, only when set. */
function profileSettings(
  config: ConfigSource,
  env: NodeJS.ProcessEnv,
): Pick<ProviderSettings, "serviceProfile" | "profile"> {
  const serviceProfile = lookup("serviceProfile", config, env);
  return serviceProfile === undefined ? {} : { serviceProfile, profile: optionalProfile(config, env) };
}

/**
 * Every problem of the settings, one per setting, instead of resolveSettings' first: the
 * plugin's CheckConfig lists them all at once.
 */
export function settingsProblems(
  config: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): { name: SettingName; message: string }[] {
  const problems: { name: SettingName; message: string }[] = [];
  const attempt = (name: SettingName, resolve: () => unknown): void => {
    try {
      resolve();
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      problems.push({ name, message: error.message });
    }
  };
  attempt("baseUrl", () => checkBaseUrl(required("baseUrl", config, env)));
  attempt("clientId", () => required("clientId", config, env));
  attempt("clientSecret", () => required("clientSecret", config, env));
  attempt("digestKey", () => optionalDigestKey(config, env));
  for (const name of INTEGER_SETTINGS) attempt(name, () => integerSetting(name, config, env));
  attempt("caCertificate", () => optionalCaCertificate(config, env));
  attempt("serviceProfile", () => optionalProfile(config, env));
  return problems;
}

/** The sub-account to use: the explicit one, else the default setting; SettingsError if neither. */
export function resolveAccountId(
  explicit: string | undefined,
  config: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (explicit !== undefined && explicit !== "") return explicit;
  const fallback = lookup("accountId", config, env);
  if (fallback === undefined) {
    throw new SettingsError(`missing accountId: pass it, or set ${where("accountId")} as the default sub-account`);
  }
  return fallback;
}

/** The command that sets embedded:digestKey (a stack secret of 256 random bits). */
export const SET_DIGEST_KEY = `pulumi config set --secret ${SETTINGS.digestKey.key} "$(openssl rand -hex 32)"`;

/** The dynamic host's warning when no embedded:digestKey is set: what it leaves open, and the fix. */
export function noDigestKeyWarning(): string {
  return (
    `${SETTINGS.digestKey.key} is not set: the field digests of this stack's ConnectorConfigurations are keyed by ` +
    "their digestSalt output, which `pulumi up --debug` prints, and the client secret, so whoever holds both can " +
    `test a guess of a value offline (docs/secrets.md). Set one, once per stack: \`${SET_DIGEST_KEY}\`; ` +
    "the next write of each configuration re-keys it, with no drift shown"
  );
}

/** Maps provider settings onto the client's knobs. */
export function toClientSettings(settings: ProviderSettings): ClientSettings {
  return {
    baseUrl: settings.baseUrl,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    timeouts: { headersMs: settings.timeoutMs, bodyMs: settings.timeoutMs },
    retry: { maxAttempts: settings.maxRetries + 1, retryTimeoutMs: settings.retryTimeoutMs },
    concurrency: settings.concurrency,
    caCertificate: settings.caCertificate,
    ...(settings.profile ? { profile: settings.profile } : {}),
  };
}

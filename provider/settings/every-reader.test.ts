// Every reader of the settings resolves the same input to the same value from the same kind of
// source (settings/resolve.ts, settings/sources.ts): the dynamic host (configure()'s stack config),
// the plugin (CheckConfig then Configure, a default or an explicit provider), `doctor` (its flags,
// the stack config), `generate` (its flags), `fleet adopt` (a customer of customers.json) and the
// fleet's fast drift check (a provider's arguments from a checkpoint). Each is given the input in
// the form it reads; none may keep a list of variables or a default of its own.
import assert from "node:assert/strict";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { adoptSettings } from "../../cli/fleet/adopt-read";
import { generateSettings } from "../../cli/generate/command";
import { closeClients } from "../client";
import { resolveDoctorSettings } from "../doctor/command";
import { withProviderArguments } from "../hosts/in-process/refresh";
import { checkConfig, configSourceOf } from "../hosts/plugin/provider-config";
import { configureFromRequest, currentClient, currentSettingOrigins, useConfig } from "../runtime/runtime";
import { SETTINGS, type SettingName } from "./resolve";

const NAMES = Object.keys(SETTINGS) as SettingName[];
type Input = Partial<Record<SettingName, string>>;
type Resolved = { settings: Record<string, unknown>; origins: Record<string, string> };

/** The settings' values only (doctor adds the profile it falls back to), and their origins. */
function resolved(settings: object, origins: object): Resolved {
  const values = settings as Record<string, unknown>;
  return { settings: Object.fromEntries(NAMES.map((n) => [n, values[n]])), origins: { ...origins } };
}

/** The process environment set to `env` for `run` (the hosts read process.env, as in a real process). */
async function withEnv<T>(env: NodeJS.ProcessEnv, run: () => Promise<T> | T): Promise<T> {
  const saved = Object.fromEntries(NAMES.map((n) => [SETTINGS[n].env, process.env[SETTINGS[n].env]]));
  for (const n of NAMES) delete process.env[SETTINGS[n].env];
  for (const [k, v] of Object.entries(env)) if (v !== undefined) process.env[k] = v;
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

const ENV = {
  EMBEDDED_BASE_URL: "https://env.example.com",
  EMBEDDED_CLIENT_ID: "env-client",
  EMBEDDED_CLIENT_SECRET: "env-secret",
  EMBEDDED_ACCOUNT_ID: "env-account",
  EMBEDDED_TIMEOUT_MS: "4321",
  EMBEDDED_MAX_RETRIES: "2",
  EMBEDDED_CONCURRENCY: "3",
};

describe("settings: every reader resolves the same input alike (value and source)", function () {
  this.timeout(30_000);
  let dir: string;
  const cwd = process.cwd();
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), "every-reader-"));
    writeFileSync(path.join(dir, "Pulumi.yaml"), "name: proj\nruntime: nodejs\n");
  });
  after(async () => {
    process.chdir(cwd);
    rmSync(dir, { recursive: true, force: true });
    await closeClients();
  });

  /** The stack config `input` as `pulumi config --json --show-secrets` prints it, for doctor. */
  function fakePulumi(input: Input): string {
    const fake = path.join(dir, "fake-pulumi");
    const json = Object.fromEntries(
      Object.entries(input).map(([n, value]) => [SETTINGS[n as SettingName].key, { value, secret: true }]),
    );
    writeFileSync(fake, `#!/bin/sh\necho '${JSON.stringify(json)}'\n`);
    chmodSync(fake, 0o755);
    return fake;
  }

  /** The readers that take a stack config or a provider's arguments: every setting. */
  const stackReaders: Record<string, (input: Input, env: NodeJS.ProcessEnv) => Promise<Resolved>> = {
    "the dynamic host": (input, env) =>
      withEnv(env, () => {
        const config: Record<string, string> = {};
        for (const [n, v] of Object.entries(input)) config[SETTINGS[n as SettingName].key] = v as string;
        configureFromRequest({ config: { get: (key) => config[key] } });
        return resolved(currentClient().settings, currentSettingOrigins());
      }),
    "the plugin (CheckConfig, then Configure)": (input, env) =>
      withEnv(env, () => {
        const { inputs, failures } = checkConfig(input, env);
        assert.deepEqual(failures, []);
        useConfig(configSourceOf(inputs));
        return resolved(currentClient().settings, currentSettingOrigins());
      }),
    "the fleet's fast drift check (a provider's arguments)": (input, env) =>
      withEnv(env, () =>
        withProviderArguments(input, async () => resolved(currentClient().settings, currentSettingOrigins())),
      ),
    "doctor (the stack config)": async (input, env) => {
      process.chdir(dir);
      try {
        const s = resolveDoctorSettings({ pulumi: fakePulumi(input), stack: "dev" }, env);
        return resolved(s, s.origins);
      } finally {
        process.chdir(cwd);
      }
    },
  };

  /** The readers whose own source holds only the credentials (flags, a customer): baseUrl, clientId, clientSecret. */
  const credentialReaders: Record<string, (input: Input, env: NodeJS.ProcessEnv) => Promise<Resolved>> = {
    ...stackReaders,
    "doctor (its flags)": async (input, env) => {
      const s = resolveDoctorSettings({ pulumi: "false", stack: false, ...input }, env);
      return resolved(s, s.origins);
    },
    generate: async (input, env) => {
      const s = generateSettings({ language: "ts", project: "p", ...input }, env);
      return resolved(s.settings, s.origins);
    },
    "fleet adopt (a customer of customers.json, or none)": async (input, env) => {
      const customers = {
        acme: { baseUrl: input.baseUrl, clientId: input.clientId as string, clientSecretEnv: "ACME_SECRET" },
      };
      const customer = input.clientSecret === undefined ? undefined : "acme";
      const s = adoptSettings(customers, customer, { ...env, ACME_SECRET: input.clientSecret });
      return resolved(s.settings, s.origins);
    },
  };

  async function agree(
    readers: Record<string, (input: Input, env: NodeJS.ProcessEnv) => Promise<Resolved>>,
    input: Input,
    env: NodeJS.ProcessEnv,
  ): Promise<Resolved> {
    const [first, ...others] = Object.entries(readers);
    const expected = await first[1](input, env);
    for (const [name, read] of others) assert.deepEqual(await read(input, env), expected, `${name} vs ${first[0]}`);
    return expected;
  }

  it("the environment alone: every reader, every setting from its variable or the one default", async () => {
    const { settings, origins } = await agree(credentialReaders, {}, ENV);
    assert.equal(settings.timeoutMs, 4321);
    assert.equal(origins.timeoutMs, "environment");
    assert.equal(settings.retryTimeoutMs, SETTINGS.retryTimeoutMs.default);
    assert.equal(origins.retryTimeoutMs, "default");
  });

  it("nothing set but the credentials: every reader, the one default of each setting", async () => {
    const { settings, origins } = await agree(
      credentialReaders,
      {},
      { ...ENV, EMBEDDED_TIMEOUT_MS: undefined, EMBEDDED_MAX_RETRIES: undefined, EMBEDDED_CONCURRENCY: undefined },
    );
    for (const name of ["timeoutMs", "maxRetries", "concurrency", "addWindowMs"] as const) {
      assert.equal(settings[name], SETTINGS[name].default, name);
      assert.equal(origins[name], "default", name);
    }
  });

  it("the credentials in each reader's own source win over the environment, for every reader", async () => {
    const input = { baseUrl: "https://own.example.com", clientId: "own-client", clientSecret: "own-secret" };
    const { settings, origins } = await agree(credentialReaders, input, ENV);
    assert.equal(settings.baseUrl, "https://own.example.com");
    assert.deepEqual([origins.baseUrl, origins.clientId, origins.clientSecret], ["config", "config", "config"]);
    assert.equal(origins.accountId, "environment");
  });

  it("a timeout in the stack config or a provider's arguments: the hosts, the fleet and doctor alike", async () => {
    const { settings, origins } = await agree(stackReaders, { timeoutMs: "1234", accountId: "stack-account" }, ENV);
    assert.deepEqual([settings.timeoutMs, origins.timeoutMs], [1234, "config"]);
    assert.deepEqual([settings.accountId, origins.accountId], ["stack-account", "config"]);
  });

  it("doctor's --timeout (seconds) is the timeoutMs setting, over the stack config and the environment", () => {
    const s = resolveDoctorSettings({ pulumi: "false", stack: false, timeout: "2" }, ENV);
    assert.deepEqual([s.timeoutMs, s.origins.timeoutMs], [2000, "config"]);
  });
});

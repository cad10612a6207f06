// What the upgrade fixtures are (test/e2e/upgrade/README.md), shared by their recorder
// (record.ts) and their test (earlier-states.test.ts): the hosts and their programs, the files a
// fixture keeps, and what its state holds that an upgrade must keep reading (where the digests'
// salt is, whether embedded:digestKey keyed them, which fields are digested and which are
// Password marks, which package paths the dynamic resources' serialized providers require).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "../../../harness/engine";

export const upgradeDir = path.join(repoRoot, "test", "e2e", "upgrade");
/**
 * The programs, one per host, the same text for every version. A dot directory: TypeScript's
 * wildcards skip it, so the root tsconfig (`test/**\/*.ts`) does not compile the two TypeScript
 * programs (they import the package by its name, as a user's program does, from their copy).
 */
export const programsDir = path.join(upgradeDir, ".programs");
export const fixturesDir = path.join(upgradeDir, "fixtures");

/** The service's seeded demo values (docs/local-service.md) and the recorder's passphrase: not secrets. */
export const DEMO = {
  clientId: "demo-client",
  clientSecret: "demo-secret",
  passphrase: "quickstart-demo-passphrase",
  /** The S3 connector's Password (`pulumi config set --secret s3SecretAccessKey`). */
  s3SecretAccessKey: "upgrade-fixture-demo-secret-access-key",
  /** embedded:digestKey of the fixture that sets it (`pulumi config set --secret`). */
  digestKey: "upgrade-fixture-demo-digest-key-0123456789abcdef",
} as const;

export type Language = "typescript" | "python" | "go" | "yaml";

export interface Host {
  /** The fixture's directory name under fixtures/<version>/. */
  name: string;
  language: Language;
  /** The program's directory under .programs/ (its Pulumi.yaml names the project). */
  program: string;
  /** Sets embedded:digestKey (a stack secret): a setting only versions since f9f2405 know. */
  digestKey?: boolean;
}

export const HOSTS: readonly Host[] = [
  { name: "typescript-dynamic", language: "typescript", program: "typescript-dynamic" },
  { name: "typescript-dynamic-digest-key", language: "typescript", program: "typescript-dynamic", digestKey: true },
  { name: "typescript-plugin", language: "typescript", program: "typescript-plugin" },
  { name: "python", language: "python", program: "python" },
  { name: "go", language: "go", program: "go" },
  { name: "yaml", language: "yaml", program: "yaml" },
];

/** The stack of a version's fixture: unique among the fixtures of one program (they share a project). */
export function stackName(version: string, host: Host): string {
  return `v${version}${host.digestKey ? "-digest-key" : ""}`;
}

/** fixture.json: how and by what a fixture was recorded. */
export interface FixtureMeta {
  /** The version's label (its commit, abbreviated): the directory name under fixtures/. */
  version: string;
  commit: string;
  subject: string;
  committed: string;
  /** Why this version has fixtures (which change came after it). */
  why: string;
  host: string;
  language: Language;
  /** The program (.programs/<program>) and the sha256 of each of its files when recorded. */
  program: { dir: string; sha256: Record<string, string> };
  project: string;
  stack: string;
  /** What the program ran against: the recorder's service (its URL replaced by the test's). */
  service: { baseUrl: string; clientId: string; accountId: string; subAccount: number };
  passphrase: string;
  /** The engine, SDKs and toolchain that ran the program. */
  recordedWith: Record<string, string>;
  /** What the state holds (inventory(), recomputed by the test). */
  holds: StateInventory;
}

/** One fixture: its files, read. */
export interface Fixture {
  dir: string;
  meta: FixtureMeta;
  host: Host;
  /** `pulumi stack export` (secrets encrypted), as text. */
  stateText: string;
  /** Pulumi.<stack>.yaml (its encryptionsalt and encrypted secrets). */
  stackConfigText: string;
  /** Pulumi.yaml as recorded. */
  projectText: string;
  service: ServiceDump;
}

/** The rows the service held for the fixture's sub-account (its SQLite tables, service/storage/schema.ts). */
export interface ServiceDump {
  accountId: string;
  tables: Record<"added_connectors" | "configuration_clock" | "connections", Record<string, unknown>[]>;
}

export const SERVICE_TABLES = ["added_connectors", "configuration_clock", "connections"] as const;

/** The files of a fixture directory. */
export const FIXTURE_FILES = {
  meta: "fixture.json",
  state: "state.json",
  project: "Pulumi.yaml",
  service: "service.json",
  stackConfig: (stack: string) => `Pulumi.${stack}.yaml`,
} as const;

/** The sha256 of each file of a program directory (relative names, sorted). */
export function programHashes(program: string): Record<string, string> {
  const dir = path.join(programsDir, program);
  const hashes: Record<string, string> = {};
  for (const name of readdirSync(dir).sort())
    hashes[name] = createHash("sha256")
      .update(readFileSync(path.join(dir, name)))
      .digest("hex");
  return hashes;
}

export function hostNamed(name: string): Host {
  const host = HOSTS.find((h) => h.name === name);
  if (!host) throw new Error(`no upgrade host named ${name} (hosts: ${HOSTS.map((h) => h.name).join(", ")})`);
  return host;
}

/** Every fixture under fixtures/, oldest version first, then by host. */
export function loadFixtures(): Fixture[] {
  if (!existsSync(fixturesDir)) return [];
  const fixtures: Fixture[] = [];
  for (const version of readdirSync(fixturesDir).sort())
    for (const hostDir of readdirSync(path.join(fixturesDir, version)).sort()) {
      const dir = path.join(fixturesDir, version, hostDir);
      const read = (name: string) => readFileSync(path.join(dir, name), "utf8");
      const meta = JSON.parse(read(FIXTURE_FILES.meta)) as FixtureMeta;
      fixtures.push({
        dir,
        meta,
        host: hostNamed(meta.host),
        stateText: read(FIXTURE_FILES.state),
        stackConfigText: read(FIXTURE_FILES.stackConfig(meta.stack)),
        projectText: read(FIXTURE_FILES.project),
        service: JSON.parse(read(FIXTURE_FILES.service)) as ServiceDump,
      });
    }
  return fixtures.sort(
    (a, b) => a.meta.committed.localeCompare(b.meta.committed) || a.meta.host.localeCompare(b.meta.host),
  );
}

/** `<version> × <host>`, as test titles and failures name a fixture. */
export function fixtureName(meta: Pick<FixtureMeta, "version" | "host">): string {
  return `${meta.version} × ${meta.host}`;
}

// --- what a state holds

/** What one ConnectorConfiguration's state holds of its digests. */
export interface ConfigurationHolds {
  urn: string;
  /** Where the digests' salt is: the secret output `digestSalt`, the hidden secret input `__digestSalt`, both, or none (unsalted). */
  salt: "output digestSalt" | "input __digestSalt" | "output digestSalt and input __digestSalt" | "none";
  /** The output `digestRecipe` (`salt+digestKey`: embedded:digestKey is mixed in), when present. */
  digestRecipe?: string;
  digestKeyId: boolean;
  /** Each field of `fieldDigests`: a digest (hex), or the mark of a Password that has none. */
  fieldDigests: Record<string, "digest" | "password mark" | "other">;
  /** Whether the stored `secretConfig` input is encrypted. */
  secretConfigEncrypted: boolean;
}

export interface StateInventory {
  /** The resources by type (providers and the stack included). */
  types: Record<string, number>;
  configurations: ConfigurationHolds[];
  /** The package paths the dynamic resources' serialized providers require (their `__provider` inputs). */
  requires: string[];
  /** The stack config keys the stack file holds, and which of them are secure. */
  config: { keys: string[]; secure: string[] };
}

/** The engine's mark of a secret in a deployment. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

function isEncryptedSecret(value: unknown): boolean {
  return !!value && typeof value === "object" && SECRET_SIG in value && "ciphertext" in value;
}

interface ExportedResource {
  urn: string;
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** What `pulumi stack export`'s text and the stack file's text hold (no secret is decrypted). */
export function inventory(stateText: string, stackConfigText: string): StateInventory {
  const exported = JSON.parse(stateText) as { deployment: { resources?: ExportedResource[] } };
  const resources = exported.deployment.resources ?? [];
  const types: Record<string, number> = {};
  for (const r of resources) types[r.type] = (types[r.type] ?? 0) + 1;
  const configurations: ConfigurationHolds[] = resources
    .filter((r) => r.type.endsWith(":ConnectorConfiguration"))
    .map((r) => {
      const outputs = r.outputs ?? {};
      const inputs = r.inputs ?? {};
      const outputSalt = isEncryptedSecret(outputs.digestSalt);
      const inputSalt = isEncryptedSecret(inputs.__digestSalt);
      const digests = (outputs.fieldDigests ?? {}) as Record<string, unknown>;
      return {
        urn: r.urn,
        salt:
          outputSalt && inputSalt
            ? "output digestSalt and input __digestSalt"
            : outputSalt
              ? "output digestSalt"
              : inputSalt
                ? "input __digestSalt"
                : "none",
        ...(typeof outputs.digestRecipe === "string" ? { digestRecipe: outputs.digestRecipe } : {}),
        digestKeyId: typeof outputs.digestKeyId === "string",
        fieldDigests: Object.fromEntries(
          Object.keys(digests)
            .sort()
            .map((field) => {
              const value = digests[field];
              const kind =
                typeof value === "string" && /^[0-9a-f]{16}$/.test(value)
                  ? "digest"
                  : typeof value === "string" && /password/i.test(value)
                    ? "password mark"
                    : "other";
              return [field, kind] as const;
            }),
        ),
        secretConfigEncrypted: isEncryptedSecret(inputs.secretConfig),
      };
    });
  const requires = new Set<string>();
  for (const r of resources) {
    const provider = r.inputs?.__provider;
    if (typeof provider === "string")
      for (const m of provider.matchAll(/pulumi-embedded-connectors\/dist\/[\w./-]+\.js/g)) requires.add(m[0]);
  }
  const keys: string[] = [];
  const secure: string[] = [];
  const section = stackConfigText.split(/^config:\n/m)[1] ?? "";
  const lines = section.split("\n");
  lines.forEach((line, i) => {
    const key = /^ {2}([\w:.-]+):(.*)$/.exec(line);
    if (!key) return;
    keys.push(key[1]);
    if (/secure:/.test(key[2]) || /^ {4}secure:/.test(lines[i + 1] ?? "")) secure.push(key[1]);
  });
  return {
    types,
    configurations,
    requires: [...requires].sort(),
    config: { keys: keys.sort(), secure: secure.sort() },
  };
}

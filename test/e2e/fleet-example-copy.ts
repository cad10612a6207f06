// A copy of examples/fleet without its stack files, on a local service whose first customer
// (acme) has the test's client secret: the set-up of the fleet e2e tests that write their own
// stack files (fleet-secret-sources.test.ts, fleet-policy.test.ts).
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { startLocalService, type LocalService } from "../../harness/local-service";
import { readProject } from "../../cli/fleet/project";
import { ensureEngine, repoRoot, type Engine } from "./harness";

export interface FleetCopy {
  engine: Engine;
  service: LocalService;
  /** The copy's directory. */
  workDir: string;
  project: Awaited<ReturnType<typeof readProject>>;
  /** The environment of a fleet run: the engine's, the service's URL, acme's client secret, and `extra`. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  /** Stops the service and removes the copy. */
  remove(): Promise<void>;
}

/** The copy, in a new directory `<name>-<random>` under `parent`. */
export async function copyFleetExample(options: {
  parent: string;
  name: string;
  acmeClientSecret: string;
}): Promise<FleetCopy> {
  const engine = await ensureEngine();
  const service = await startLocalService({ firstCustomer: { clientSecret: options.acmeClientSecret } });
  const workDir = path.join(options.parent, `${options.name}-${randomBytes(4).toString("hex")}`);
  await fs.cp(path.join(repoRoot, "examples", "fleet"), workDir, { recursive: true });
  for (const f of await fs.readdir(workDir)) if (/^Pulumi\..+\.yaml$/.test(f)) await fs.rm(path.join(workDir, f));
  return {
    engine,
    service,
    workDir,
    project: await readProject(workDir),
    env: (extra = {}) => ({
      ...process.env,
      ...engine.env,
      CI: "true",
      EMBEDDED_BASE_URL: service.baseUrl,
      ACME_CLIENT_SECRET: options.acmeClientSecret,
      ...extra,
    }),
    remove: async () => {
      await fs.rm(workDir, { recursive: true, force: true });
      await service.stop();
    },
  };
}

// `pulumi-embedded-connectors fleet adopt`: the command line of adopt.ts.
import type { Command } from "commander";
import { readAdoptList, readSecretMap } from "./adopt-input";

interface AdoptFlags {
  accounts: string;
  secrets?: string;
  resume?: boolean;
  dir: string;
  concurrency: number;
  json?: string;
}

export function registerAdopt(fleet: Command, concurrency: (value: string) => number, byDefault: number): void {
  fleet
    .command("adopt")
    .description(
      "bring existing sub-accounts under the fleet with no write: one stack file and stack each, every connector imported, then proved by `fleet preview` (no change) and `fleet drift` (clean)",
    )
    .requiredOption(
      "--accounts <file>",
      "the sub-accounts: CSV `accountId,customer[,stack]` a line, or JSON [{ accountId, customer, stack }]",
    )
    .option(
      "--secrets <file.json>",
      'where Password fields come from: { "<connector key or name>": { "<field>": { "config": k } | { "env": V } } }; every other Password is left to the service (heldByService)',
    )
    .option("--resume", "keep the stack files a previous run wrote and finish their adoption")
    .option("--dir <dir>", "the program's directory (holding Pulumi.yaml and the stack files)", ".")
    .option("--concurrency <k>", "sub-accounts at once", concurrency, byDefault)
    .option("--json <file>", "write the report as JSON")
    .action(async (flags: AdoptFlags) => {
      // Loaded by this command alone: it brings the client and the engine's automation with it.
      const { adoptFleet, adoptLine, writeAdoptReport } = await import("./adopt");
      const reports = await adoptFleet({
        dir: flags.dir,
        accounts: await readAdoptList(flags.accounts),
        secrets: flags.secrets ? await readSecretMap(flags.secrets) : undefined,
        resume: flags.resume,
        concurrency: flags.concurrency,
      });
      if (flags.json) await writeAdoptReport(flags.json, reports);
      for (const r of reports) process.stdout.write(`${adoptLine(r)}\n`);
      const bad = reports.filter((r) => r.status === "refused" || r.status === "failed").length;
      process.stdout.write(
        `fleet adopt: ${reports.length} sub-account(s), ${reports.length - bad} adopted, ${bad} not\n`,
      );
      process.exitCode = bad > 0 ? 1 : 0;
    });
}

// `pulumi-embedded-connectors fleet issues`: the command line of issues.ts.
import type { Command } from "commander";
import { readReports, syncIssues } from "./issues";

interface IssuesFlags {
  report: string[];
  repo?: string;
  label: string;
}

export function registerIssues(fleet: Command): void {
  fleet
    .command("issues")
    .description(
      "from `fleet drift --json` reports: open a GitHub issue per newly drifted stack, comment when its drift changes, close it once clean (GITHUB_TOKEN, GITHUB_API_URL, GITHUB_REPOSITORY)",
    )
    .requiredOption("--report <file...>", "the drift reports (one per shard); a stack in none of them is left as it is")
    .option("--repo <owner/name>", "the repository (default: GITHUB_REPOSITORY)")
    .option("--label <label>", "the label of the fleet's drift issues", "fleet-drift")
    .action(async (flags: IssuesFlags) => {
      const env = process.env;
      const repo = flags.repo ?? env.GITHUB_REPOSITORY;
      if (!repo || !/^[\w.-]+\/[\w.-]+$/.test(repo))
        throw new Error("fleet issues: name the repository as owner/name: --repo, or GITHUB_REPOSITORY");
      if (!env.GITHUB_TOKEN)
        throw new Error("fleet issues: set GITHUB_TOKEN (in a workflow: the job's token, with issues: write)");
      const runUrl =
        env.GITHUB_SERVER_URL && env.GITHUB_RUN_ID
          ? `${env.GITHUB_SERVER_URL}/${repo}/actions/runs/${env.GITHUB_RUN_ID}`
          : undefined;
      const done = await syncIssues({
        reports: await readReports(flags.report),
        repo,
        token: env.GITHUB_TOKEN,
        apiUrl: env.GITHUB_API_URL || "https://api.github.com",
        label: flags.label,
        runUrl,
      });
      for (const line of done) process.stdout.write(`${line}\n`);
      process.stdout.write(`fleet issues: ${done.length} stack(s) acted on\n`);
    });
}

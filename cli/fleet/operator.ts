// `fleet operator`: one Pulumi Kubernetes Operator `Stack` (pulumi.com/v1, operator v2) per
// stack of the fleet. The operator clones the repository, runs `pulumi up` with a refresh
// first, and runs it again every resync period even when the branch did not move
// (continueResyncOnCommitMatch), so a sub-account changed by hand is put back within that period.
import { createHash } from "node:crypto";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { isStackName, stackFileName, type FleetProject } from "./project";
import { escapeLineBreaks, toYaml, type YamlValue } from "./yaml";

export interface OperatorOptions {
  repo: string;
  branch: string;
  repoDir?: string;
  namespace: string;
  serviceAccount: string;
  /** The Secret holding backendUrl, passphrase and one key per --secret-env variable. */
  secret: string;
  /** Environment variables the program reads secrets from (customers' client secrets, env secrets). */
  secretEnv: string;
  resync: number;
  out?: string;
}

/** The operator refuses Stack names longer than 42 characters (the CRD's validation rule). */
export const MAX_STACK_OBJECT_NAME = 42;

/** A DNS-1123 name of at most 42 characters, unique per stack (a hash suffix when shortened). */
export function objectNameOf(project: string, stack: string): string {
  const clean = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^-+|-+$/g, "");
  const full = clean(`${project}-${stack}`) || "stack";
  if (full.length <= MAX_STACK_OBJECT_NAME && full === `${project}-${stack}`) return full;
  const hash = createHash("sha256").update(`${project}/${stack}`).digest("hex").slice(0, 8);
  return `${full.slice(0, MAX_STACK_OBJECT_NAME - 9).replace(/-+$/, "")}-${hash}`;
}

export function stackManifest(project: FleetProject, stack: string, opts: OperatorOptions): YamlValue {
  const secretRef = (key: string) => ({ type: "Secret", secret: { name: opts.secret, key } });
  const envRefs: Record<string, YamlValue> = {
    PULUMI_BACKEND_URL: secretRef("backendUrl"),
    PULUMI_CONFIG_PASSPHRASE: secretRef("passphrase"),
  };
  for (const name of opts.secretEnv
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean))
    envRefs[name] = secretRef(name);
  return {
    apiVersion: "pulumi.com/v1",
    kind: "Stack",
    metadata: {
      name: objectNameOf(project.name, stack),
      namespace: opts.namespace,
      labels: {
        "app.kubernetes.io/part-of": project.name
          .toLowerCase()
          .replace(/[^a-z0-9._-]+/g, "-")
          .slice(0, 63),
      },
      annotations: { "embedded-connectors/stack": stack },
    },
    spec: {
      stack,
      projectRepo: opts.repo,
      branch: opts.branch,
      ...(opts.repoDir ? { repoDir: opts.repoDir } : {}),
      serviceAccountName: opts.serviceAccount,
      // Drift: every resync period, refresh (read the sub-account) and re-apply, even when
      // the branch did not move, so a change made by hand is put back, not only reported.
      refresh: true,
      continueResyncOnCommitMatch: true,
      resyncFrequencySeconds: opts.resync,
      // Removing this object must never empty a customer's sub-account.
      destroyOnFinalize: false,
      envRefs,
    },
  };
}

export async function writeOperatorManifests(project: FleetProject, opts: OperatorOptions): Promise<void> {
  // Only names Pulumi accepts reach a manifest or its `# stack …` comment: any other file name
  // (U+0085 breaks out of the comment for Go's YAML reader) is reported, quoted on one line.
  const refused = project.stacks.filter((stack) => !isStackName(stack));
  for (const stack of refused) {
    process.stderr.write(
      `skipped ${escapeLineBreaks(JSON.stringify(stackFileName(stack)))}: not a Pulumi stack name (letters, digits, "-", "_", "." only, at most 100); rename the file\n`,
    );
  }
  const stacks = project.stacks.filter(isStackName);
  const docs = stacks.map((stack) => ({ stack, text: toYaml(stackManifest(project, stack, opts)) }));
  if (!opts.out) {
    process.stdout.write(docs.map((d) => `---\n# stack ${d.stack}\n${d.text}`).join(""));
    return;
  }
  await fs.mkdir(opts.out, { recursive: true });
  for (const d of docs) {
    await fs.writeFile(
      path.join(opts.out, `${objectNameOf(project.name, d.stack)}.yaml`),
      `# stack ${d.stack}\n${d.text}`,
    );
  }
  process.stderr.write(`wrote ${docs.length} Stack manifest(s) to ${opts.out}\n`);
}

// Which stack a pending-Add or pending-Configure record (add-journal.ts) belongs to. `project/stack`
// alone is shared by a stack of the same names in another backend (another file:// directory,
// another bucket, another Pulumi Cloud), or on another machine sharing PULUMI_HOME: such a stack
// took over a configuration left by a killed run. Neither host is told more
// by the engine (Configure carries no backend nor organisation), but both provider processes
// run in the project's directory with the CLI's environment, so they can resolve what the CLI
// resolved: the backend (pulumi-project.ts, its credentials stripped), and the stack's
// secrets-provider identity as its stack config file holds it (`secretsprovider`,
// `encryptedkey`, `encryptionsalt`: a passphrase stack's salt is drawn at `stack init`), with
// the machine's host name. The record keeps a digest of them (no path, no URL in clear).
import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { currentBackend, fileBackendPath, parseMapping, readIfPresent, stackConfigFile } from "./pulumi-project";
import { withoutCredentials } from "../client/url-credentials";

export interface StackIdentity {
  /** `project/stack`, as messages name the stack. */
  owner: string;
  /** A digest of the owner, its backend, its secrets provider and the machine (hex). */
  key: string;
}

export interface Whereabouts {
  /** The environment the CLI gave the provider process. */
  env?: NodeJS.ProcessEnv;
  /** The project's directory (the provider process's working directory). */
  cwd?: string;
  /** The machine's name. */
  host?: string;
}

/** The backend as an identity part: a file:// directory resolved, any other URL without credentials. */
function backendPart(cwd: string, env: NodeJS.ProcessEnv): string {
  const choice = currentBackend(cwd, env);
  if ("reason" in choice) return "unknown";
  const url = choice.url.replace(/\/+$/, "");
  const dir = fileBackendPath(url, cwd);
  return dir !== undefined ? `file://${dir}` : withoutCredentials(url);
}

/** What the stack config file says of the stack's secrets provider (nothing when there is no such file). */
function secretsPart(cwd: string, stack: string): Record<string, string> {
  try {
    const file = stackConfigFile(cwd, stack);
    if (!file) return {};
    const text = readIfPresent(file);
    if (text === undefined) return {};
    const doc = parseMapping(text, file);
    const part: Record<string, string> = {};
    for (const key of ["secretsprovider", "encryptedkey", "encryptionsalt"])
      if (typeof doc[key] === "string") part[key] = doc[key];
    return part;
  } catch {
    return { unreadable: "true" };
  }
}

/** The identity of `owner` (`project/stack`) as the provider process run by the CLI sees it. */
export function stackIdentity(owner: string, where: Whereabouts = {}): StackIdentity {
  const env = where.env ?? process.env;
  const cwd = where.cwd ?? process.cwd();
  const stack = owner.slice(owner.indexOf("/") + 1).replace(/\//g, "-");
  const parts = {
    owner,
    backend: backendPart(cwd, env),
    secrets: secretsPart(cwd, stack),
    host: where.host ?? hostname(),
  };
  return { owner, key: createHash("sha256").update(JSON.stringify(parts)).digest("hex") };
}

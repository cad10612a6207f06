// The passphrase keys of the stacks `fleet drift` is about to check, started from their stack
// files' `encryptionsalt` as soon as the stacks are chosen: each key costs ~0.25 s of CPU
// (PBKDF2, passphrase.ts) and is the largest part of the fast path's time, so the derivations
// run in libuv's pool while this process reads the stack files, opens the backend and reads the
// checkpoints, whose salt (the same, as `pulumi stack init` writes both) finds its key under way.
// The salt is a hint only, so it is read by a line's pattern, not by parsing the file (a YAML
// parse costs ~1 ms a file, 25 under load, on the path this exists to shorten): a salt the
// pattern misses (the JSON form), or that differs from its checkpoint's, or a stack file without
// one (a cloud secrets provider) costs nothing more than before, as the checkpoint's own secrets
// provider is what the fast path opens, always.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { stackFileName, type FleetProject } from "../project";
import { deriveKeysEarly, passphraseFromEnv } from "./passphrase";

/** `encryptionsalt: v1:…` at the top level, as `pulumi stack init` writes it. */
const SALT_LINE = /^encryptionsalt:[ \t]*["']?(v1:[A-Za-z0-9+/=:]+)["']?[ \t]*$/m;

/** The salt state a stack file's text holds, as Pulumi writes it, if the line is there. */
export function encryptionSaltOf(text: string): string | undefined {
  return SALT_LINE.exec(text)?.[1];
}

/** Each stack file's `encryptionsalt`, where it has one (a file that cannot be read is its own run's to report). */
export async function stackFileSalts(project: FleetProject, stacks: string[]): Promise<string[]> {
  const salts = await Promise.all(
    stacks.map(async (stack) => {
      const text = await fs.readFile(path.join(project.dir, stackFileName(stack)), "utf8").catch(() => "");
      return encryptionSaltOf(text);
    }),
  );
  return salts.filter((s): s is string => s !== undefined);
}

/** Starts deriving the stacks' passphrase keys, when this run has a passphrase; returns at once. */
export async function deriveStackKeysEarly(
  project: FleetProject,
  stacks: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  let passphrase: string | undefined;
  try {
    passphrase = passphraseFromEnv(env);
  } catch {
    return; // the fast path reports an unreadable passphrase file itself
  }
  if (passphrase === undefined) return;
  deriveKeysEarly(passphrase, await stackFileSalts(project, stacks));
}

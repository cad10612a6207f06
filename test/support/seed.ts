// Random seeds that a failure prints and an environment variable replays. A fixed
// seed makes every CI run replay the same cases; a fresh one per run explores new ones, and
// the printed seed reproduces a failure: PROPERTY_SEED=<seed> npm run test:unit.
import { randomInt } from "node:crypto";

/** The seed of this process: the integer in `variable` when it is set, else a fresh random one. */
export function seedFrom(variable: string, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[variable];
  if (raw === undefined || raw.trim() === "") return randomInt(1, 2 ** 31 - 1);
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`${variable} must be an integer seed, got ${JSON.stringify(raw)}`);
  return seed;
}

/** The seed of every property in this process; fast-check's failure message prints it with the path. */
export const PROPERTY_SEED = seedFrom("PROPERTY_SEED");

/** fast-check parameters: `numRuns` cases drawn from this process's seed. */
export function propertyRuns(numRuns: number): { numRuns: number; seed: number } {
  return { numRuns, seed: PROPERTY_SEED };
}

/** Inside a describe: after a failed test, prints the variable that replays it. */
export function printSeedOnFailure(variable: string, seed: number): void {
  afterEach(function () {
    if (this.currentTest?.state === "failed") {
      process.stderr.write(`${this.currentTest.fullTitle()}: replay with ${variable}=${seed}\n`);
    }
  });
}

/** A small generator from a hex seed (mulberry32): the same seed draws the same sequence. */
export function seededRandom(seed: string): () => number {
  let a = parseInt(seed.slice(0, 8), 16) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Stable 16-character lowercase hex ids derived from names, so that the seed
// gives the same ids on every run and every machine (their format: contract/ids.ts).
import { createHash } from "node:crypto";

export function stableId(kind: string, name: string): string {
  return createHash("sha256").update(`${kind}:${name}`).digest("hex").slice(0, 16);
}

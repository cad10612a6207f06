// Stable 16-character lowercase hex ids derived from names, so that the seed
// gives the same ids on every run and every machine.
import { createHash } from "node:crypto";

export function stableId(kind: string, name: string): string {
  return createHash("sha256").update(`${kind}:${name}`).digest("hex").slice(0, 16);
}

export const ID_PATTERN = /^[A-Za-z0-9]{16}$/;

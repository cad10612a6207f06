// The offline guess of a value, as an attacker makes it: with what Pulumi printed (a
// `pulumi up --debug` log), what it stores outside its encrypted secrets (`pulumi stack export`,
// the backend's files) and the client secret, try every key recipe the provider has ever had
// (written out here, not taken from the provider): the unsalted one of the first field digests,
// and one salted by each salt-looking string of the texts (every run of 16 or more hex
// characters, in any case, whole and as 32-character windows: the dynamic provider's
// `digestSalt`, which its SDK prints, is 32). A guess is confirmed when, under one of them, it
// digests to a 16-hex-character string of the texts. With `digestKeys` (what the attacker lacks:
// the stack secret embedded:digestKey), the dynamic host's keyed recipe too, for each salt: the
// procedure's own check that it would confirm a guess if the key were printed.
import { createHmac, scryptSync } from "node:crypto";

const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export interface GuessTarget {
  accountId: string;
  connectorId: string;
  field: string;
  /** The value guessed, as a string (a Text or a Password). */
  guess: string;
}

/** Whether the texts and the client secret confirm the guess. */
export function confirmsGuess(
  texts: readonly string[],
  clientSecret: string,
  target: GuessTarget,
  digestKeys: readonly string[] = [],
): boolean {
  const all = texts.join("\n");
  const base = scryptSync(clientSecret, "pulumi-embedded-connectors/field-digest-key/v1", 32, SCRYPT);
  const runs = (all.toLowerCase().match(/[0-9a-f]{16,}/g) ?? []).flatMap((run) => [
    run,
    ...Array.from({ length: Math.max(0, run.length - 31) }, (_, at) => run.slice(at, at + 32)),
  ]);
  const salts = new Set(runs);
  const keys = [
    base,
    ...[...salts].map((salt) =>
      createHmac("sha256", base).update(`pulumi-embedded-connectors/field-digest-key/v2-salted\n${salt}`).digest(),
    ),
    ...[...salts].flatMap((salt) =>
      digestKeys.map((digestKey) =>
        createHmac("sha256", base)
          .update(JSON.stringify(["pulumi-embedded-connectors/field-digest-key/v3-digest-key", digestKey, salt]))
          .digest(),
      ),
    ),
  ];
  const digests = new Set(all.match(/\b[0-9a-f]{16}\b/g) ?? []);
  const message = JSON.stringify([target.accountId, target.connectorId, target.field, `string:${target.guess}`]);
  return keys.some((key) => digests.has(createHmac("sha256", key).update(message).digest("hex").slice(0, 16)));
}

// What a destroy refused by the delete guard prints, as a user reads it: each connector a
// connection uses is named in the Diagnostics — refused once, in the guard's words (the first
// resource the engine deletes refuses), or listed among the sub-account's other connectors in use
// (the engine starts no other delete once one failed) — with its counts and what to do.
import { strict as assert } from "node:assert";

export function assertInUseRefusals(
  diagnostics: string,
  accountId: string,
  connectors: readonly (readonly [id: string, name: string, counts?: RegExp])[],
): void {
  for (const [id, name, counts] of connectors) {
    const refused = diagnostics.split(`(${id}) from sub-account ${accountId}`).length - 1;
    const listed = diagnostics.split(`[${id}] (srcConnections=`).length - 1;
    assert.ok(
      refused <= 1,
      `the refusal for ${name} is printed once in the Diagnostics, not ${refused} times:\n${diagnostics}`,
    );
    assert.ok(
      refused + listed >= 1,
      `the Diagnostics name ${name} (${id}), refused or among the others in use:\n${diagnostics}`,
    );
    const line =
      diagnostics
        .split("\n")
        .find((l) => l.includes(`(${id}) from sub-account`) || l.includes(`[${id}] (srcConnections=`)) ?? "";
    assert.ok(line.includes(`"${name}"`), `names the connector: ${line}`);
    assert.match(line, /delete (those|the) connections/i, `says what to do: ${line}`);
    if (counts) {
      const at = Math.max(line.indexOf(`(${id}) from sub-account`), line.indexOf(`[${id}] (srcConnections=`));
      assert.match(line.slice(at, at + 140), counts, `gives ${name}'s connection counts: ${line}`);
    }
  }
}

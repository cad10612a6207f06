// The documented defaults are the real ones (issue 18, item 7: settings.ts said 250 ms for
// addWindowMs when it is 500): README's configuration table and the `Default:` of each doc
// comment in settings.ts, against what resolveSettings gives when nothing is set.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { noConfig, resolveSettings, SETTINGS, type ProviderSettings, type SettingName } from "../../provider/settings";

const ROOT = join(__dirname, "../../..");
const NUMERIC = ["timeoutMs", "maxRetries", "concurrency", "addWindowMs"] as const satisfies readonly SettingName[];

const required = { EMBEDDED_BASE_URL: "http://127.0.0.1:1", EMBEDDED_CLIENT_ID: "id", EMBEDDED_CLIENT_SECRET: "secret" };
const defaults: ProviderSettings = resolveSettings(noConfig, required);

/** The number a README table row starts its default with: | `embedded:x` | `EMBEDDED_X` | `500` (…) | */
function readmeDefault(readme: string, name: SettingName): number | undefined {
  const row = readme.split("\n").find((line) => line.startsWith(`| \`${SETTINGS[name].key}\` |`));
  const match = row?.split("|")[3]?.match(/^\s*`(\d+)`/);
  return match ? Number(match[1]) : undefined;
}

/** The `Default: N` of the doc comment right above `name:` in the ProviderSettings interface. */
function docDefault(source: string, name: SettingName): number | undefined {
  const body = source.slice(source.indexOf("export interface ProviderSettings"));
  const at = body.search(new RegExp(`\\n\\s*${name}\\??: `));
  const comment = body.slice(body.lastIndexOf("/**", at), at);
  const match = comment.match(/Default: (\d+)/);
  return match ? Number(match[1]) : undefined;
}

describe("settings: documented defaults", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const source = readFileSync(join(ROOT, "provider/settings.ts"), "utf8");
  for (const name of NUMERIC) {
    it(`${name}: README and the doc comment give the default resolveSettings uses`, () => {
      assert.equal(readmeDefault(readme, name), defaults[name], `README's default of ${SETTINGS[name].key}`);
      assert.equal(docDefault(source, name), defaults[name], `settings.ts's doc comment of ${name}`);
    });
  }

  it("timeoutMs is not documented as a cap on a whole request (undici's bodyTimeout is a gap between chunks)", () => {
    const row = readme.split("\n").find((line) => line.startsWith("| `embedded:timeoutMs` |")) ?? "";
    assert.doesNotMatch(row, /per request/i);
    assert.match(row, /between two chunks/);
    assert.doesNotMatch(source, /Per-request timeout/i);
  });
});

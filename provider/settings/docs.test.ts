// The documented defaults are the real ones (settings once said 250 ms for
// addWindowMs when it is 500): docs/installation-configuration.md's settings table and the `Default:` of each doc
// comment in settings/resolve.ts, against what resolveSettings gives when nothing is set.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { noConfig, resolveSettings, SETTINGS, type ProviderSettings, type SettingName } from "./resolve";

const ROOT = join(__dirname, "../../..");
const NAMES = Object.keys(SETTINGS) as SettingName[];
/** The settings with a numeric default; the others have none (required, or unset). */
const NUMERIC = NAMES.filter((name) => "default" in SETTINGS[name]);
const WITHOUT_DEFAULT = NAMES.filter((name) => !NUMERIC.includes(name));

const required = {
  EMBEDDED_BASE_URL: "http://127.0.0.1:1",
  EMBEDDED_CLIENT_ID: "id",
  EMBEDDED_CLIENT_SECRET: "secret",
};
const defaults: ProviderSettings = resolveSettings(noConfig, required);

/** The default cell of the settings table's row for `name`: | `embedded:x` | `EMBEDDED_X` | `500` (…) | */
function readmeDefaultCell(readme: string, name: SettingName): string | undefined {
  const row = readme.split("\n").find((line) => line.startsWith(`| \`${SETTINGS[name].key}\` |`));
  return row?.split("|")[3]?.trim();
}

/** The number the settings table's default cell starts with. */
function readmeDefault(readme: string, name: SettingName): number | undefined {
  const match = readmeDefaultCell(readme, name)?.match(/^`(\d+)`/);
  return match ? Number(match[1]) : undefined;
}

/** Whether resolveSettings refuses to go on without the setting. */
function isRequired(name: SettingName): boolean {
  try {
    resolveSettings(noConfig, { ...required, [SETTINGS[name].env]: undefined });
    return false;
  } catch {
    return true;
  }
}

/** The doc comment right above `name:` in the ProviderSettings interface. */
function docComment(source: string, name: SettingName): string {
  const body = source.slice(source.indexOf("export interface ProviderSettings"));
  const at = body.search(new RegExp(`\\n\\s*${name}\\??: `));
  return at < 0 ? "" : body.slice(body.lastIndexOf("/**", at), at);
}

/** The `Default: N` of the doc comment of `name`. */
function docDefault(source: string, name: SettingName): number | undefined {
  const match = docComment(source, name).match(/Default: (\d+)/);
  return match ? Number(match[1]) : undefined;
}

describe("settings: documented defaults", () => {
  const readme = readFileSync(join(ROOT, "docs", "installation-configuration.md"), "utf8");
  const source = readFileSync(join(ROOT, "provider/settings/resolve.ts"), "utf8");
  for (const name of NUMERIC) {
    it(`${name}: the settings table (docs/installation-configuration.md) and the doc comment give the default resolveSettings uses`, () => {
      assert.equal(
        readmeDefault(readme, name),
        defaults[name],
        `the settings table's default of ${SETTINGS[name].key}`,
      );
      assert.equal(docDefault(source, name), defaults[name], `settings/resolve.ts's doc comment of ${name}`);
    });
  }

  for (const name of WITHOUT_DEFAULT) {
    const mustBeSet = isRequired(name);
    it(`${name}: the settings table (docs/installation-configuration.md) and the doc comment say it has no default${mustBeSet ? " and is required" : ""}`, () => {
      const cell = readmeDefaultCell(readme, name) ?? "";
      assert.match(cell, /^–/, `the settings table's default of ${SETTINGS[name].key}`);
      assert.equal(/\(required\)/.test(cell), mustBeSet, `the settings table's default of ${SETTINGS[name].key}`);
      assert.match(
        docComment(source, name),
        mustBeSet ? /Required/ : /Default: none/,
        `settings/resolve.ts's doc comment of ${name}`,
      );
      if (!mustBeSet) assert.equal(defaults[name], undefined, `${name} when nothing sets it`);
    });
  }

  it("timeoutMs is not documented as a cap on a whole request (undici's bodyTimeout is a gap between chunks)", () => {
    const row = readme.split("\n").find((line) => line.startsWith("| `embedded:timeoutMs` |")) ?? "";
    assert.doesNotMatch(row, /per request/i);
    assert.match(row, /between two chunks/);
    assert.doesNotMatch(source, /Per-request timeout/i);
  });
});

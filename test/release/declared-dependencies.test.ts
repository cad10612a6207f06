// Every package the code loads is declared in package.json: @grpc/grpc-js and
// google-protobuf (the plugin) and semver (the tests) resolved only through npm's hoisting of
// other packages' dependencies, so a change of those could break the build or the tests.
import { strict as assert } from "node:assert";
import { builtinModules } from "node:module";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Record<
  string,
  Record<string, string> | string
>;
/** Folders of programs with their own package.json (a user's project), and generated or fetched trees. */
const SKIP = new Set(["node_modules", "dist", "programs", "fixtures", ".work"]);

function sources(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name)) found.push(...sources(rel));
    else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(rel);
  }
  return found;
}

/** The package a module specifier names ("@scope/name/sub" → "@scope/name"), or undefined for a file or a builtin. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
  return builtinModules.includes(name) ? undefined : name;
}

describe("package.json declares every package the code loads", () => {
  it("provider, cli, contract, service, harness, scripts, bench and test", () => {
    const declared = new Set([
      manifest.name as string,
      ...["dependencies", "devDependencies", "peerDependencies"].flatMap((k) => Object.keys(manifest[k] as object)),
    ]);
    const missing = new Map<string, string>();
    for (const dir of ["provider", "cli", "contract", "service", "harness", "scripts", "bench", "test"])
      for (const file of sources(dir)) {
        const text = readFileSync(path.join(ROOT, file), "utf8");
        for (const [, specifier] of text.matchAll(
          /(?:^import [^;]*? from |^export [^;]*? from |(?<![.\w])require\()"([^"]+)"/gm,
        )) {
          const name = packageOf(specifier);
          if (name && !declared.has(name)) missing.set(name, file);
        }
      }
    assert.deepEqual(
      [...missing].map(([name, file]) => `${name} (${file})`),
      [],
    );
  });
});

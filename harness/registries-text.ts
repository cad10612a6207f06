// What `npm run registries` prints for a person: the `export` lines to paste into another shell
// (or `source` from --env-file), and the same settings as each tool's own configuration.
import { PULUMI_FIELD } from "./release-server";
import type { RegistriesInfo } from "./registries";

/** A word for POSIX shells: single-quoted, a single quote as '\''. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `export NAME=value` lines, one per variable (what --env-file writes). */
export function exportLines(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([name, value]) => `export ${name}=${shellWord(value)}\n`)
    .join("");
}

/** The same settings, written into each tool's own configuration instead (to be undone afterwards). */
export function toolSettings(info: RegistriesInfo): string[] {
  const lines = [
    `npm config set registry ${shellWord(info.npm)}   # or registry=${info.npm} in a project's .npmrc`,
    `pip config set global.index-url ${shellWord(info.pypi)}`,
  ];
  if ("refused" in info.go) lines.push(`# Go: no module to fetch by name (${info.go.refused.split("\n")[0]})`);
  else
    lines.push(
      `go env -w GOPRIVATE=${shellWord(info.env.GOPRIVATE)}`,
      `git config --global ${shellWord(`url.${info.go.remote}.insteadOf`)} ${shellWord(info.go.repository)}`,
      "git config --global protocol.file.allow always",
    );
  lines.push(
    `pulumi plugin install resource ${PULUMI_FIELD.name} ${PULUMI_FIELD.version} --server ${shellWord(info.release.url)}`,
  );
  return lines;
}

/** The whole text for a person: where each registry is, what to export, and how to stop. */
export function registriesText(info: RegistriesInfo): string {
  const go = "refused" in info.go ? "not published" : `${info.go.module} (tag ${info.go.tag}) at ${info.go.remote}`;
  return [
    "# Registries on loopback, holding this checkout's release:",
    `#   npm     ${info.npm}`,
    `#   PyPI    ${info.pypi}`,
    `#   Go      ${go}`,
    `#   plugin  ${info.release.url} (requests logged in ${info.release.requestLog})`,
    "# In another shell, export these, then follow docs/installation-configuration.md from an empty directory:",
    exportLines(info.env).trimEnd(),
    "# Or write the same settings into each tool's own configuration (and undo them afterwards):",
    ...toolSettings(info).map((line) => `#   ${line}`),
    "# Ctrl-C (or SIGTERM) stops them and removes their directory.",
    "",
  ].join("\n");
}

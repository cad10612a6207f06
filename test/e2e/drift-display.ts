// How the e2e suites read a drift display: which fields it marks as changed, that it
// shows no value, and that a run which found nothing shows no changed property.
import { strict as assert } from "node:assert";

/**
 * An engine run's display without the Stack's outputs: the test programs export every resource
 * whole, which a drift display of the resources themselves does not depend on.
 */
export function withoutStackOutputs(text: string): string {
  return text.replace(/^ {4}--outputs:--$[\s\S]*?(?=^Resources:)/m, "");
}

/**
 * The field ids an engine display marks as changed: on its rows marked `~`, `+` or `-` (a
 * digest `~ workspace: "…" => "…"`, a detailed diff's `~ workspace: [secret] => [secret]`, the
 * `drift` text). The unchanged keys of a changed map are printed too, unmarked.
 */
export function fieldsMarkedChanged(text: string, fields: readonly string[]): string[] {
  const marked = text.split("\n").filter((line) => /^\s*[~+-]\s/.test(line));
  return fields.filter((field) => marked.some((line) => new RegExp(`\\b${field}\\b`).test(line)));
}

/**
 * The properties an engine display prints under its first `(update)` row of a ConnectorConfiguration
 * (up to the next resource row or the summary): what the update will write, by the provider's
 * detailed diff.
 */
export function updateStepOf(text: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => /ConnectorConfiguration: \(update\)$/.test(line));
  if (start < 0) return "";
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^\S/.test(line) || /^\s*[~+-]?\s*[\w-]+:[\w/-]+:\w+: \(/.test(line));
  return (end < 0 ? rest : rest.slice(0, end)).join("\n");
}

/**
 * Asserts that a display marks no secretConfig as removed: the engine shows a detailed diff's
 * input paths against the refreshed outputs, where the input-only secretConfig is absent.
 */
export function assertSecretConfigKept(text: string, where: string): void {
  assert.ok(!/^\s*-\s+secretConfig\b/m.test(text), `${where} shows secretConfig as removed:\n${text}`);
}

/** Asserts that no value appears in `text` as a word (a digest's hex cannot contain one as a word). */
export function assertNoValue(text: string, values: readonly string[], where: string): void {
  for (const value of values) {
    assert.ok(
      !new RegExp(`\\b${value.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&")}\\b`).test(text),
      `${where} shows a value (${value.slice(0, 2)}…):\n${text}`,
    );
  }
}

/**
 * A run that found nothing prints no changed property: no `=>`, no leaf property marked `~`, `+`
 * or `-`, no resource step but the Stack's own refresh row.
 */
export function assertQuiet(text: string, where: string): void {
  const changed = withoutStackOutputs(text)
    .split("\n")
    .filter((line) => !line.includes("pulumi:pulumi:Stack")) // the Stack's own refresh row, whatever its outputs
    .filter(
      (line) =>
        line.includes("=>") || /^\s*[~+-]\s+[\w.]+\s*: [^{[]/.test(line) || /^\s*[~+-]\s+\S+: \(\w+\)/.test(line),
    );
  assert.deepEqual(changed, [], `${where} shows a change:\n${text}`);
}

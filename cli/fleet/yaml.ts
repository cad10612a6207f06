// A small YAML writer for the files the fleet writes (stack files, operator manifests): block
// mappings, lists of scalars in flow style, lists of mappings in block style. Strings that a
// YAML reader could take for something else are written as JSON strings (valid YAML).
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue | undefined };

const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./@+:-]*( [A-Za-z0-9_./@+()-]+)*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|y|n|~)$/i;

/**
 * In a JSON-quoted string, the characters JSON.stringify leaves raw that a YAML reader cannot take
 * raw, as \uXXXX escapes (valid in a YAML double-quoted scalar): U+0085, U+2028 and U+2029, which
 * YAML 1.1 readers (Go's, which Pulumi uses) take for line breaks, even in a comment; and the
 * other controls U+007F–U+009F, outside YAML's printable set, which Pulumi refuses in a stack
 * file ("yaml: control characters are not allowed"), even quoted.
 */
export function escapeLineBreaks(quoted: string): string {
  return quoted.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function scalar(value: string | number | boolean | null): string {
  if (value === null) return "null";
  if (typeof value !== "string") return String(value);
  // ": " inside a plain scalar starts a mapping ("Foo: Bar"): such a string is quoted too.
  return PLAIN.test(value) && !RESERVED.test(value) && !value.endsWith(":") && !value.includes(": ")
    ? value
    : escapeLineBreaks(JSON.stringify(value));
}

function isScalar(value: YamlValue): value is string | number | boolean | null {
  return value === null || typeof value !== "object";
}

function key(k: string): string {
  return scalar(k);
}

function lines(value: YamlValue, indent: string): string[] {
  if (isScalar(value)) return [`${indent}${scalar(value)}`];
  if (Array.isArray(value)) {
    if (value.every(isScalar)) return [`${indent}[${value.map((v) => scalar(v as string)).join(", ")}]`];
    return value.flatMap((item) => {
      const inner = lines(item, `${indent}  `);
      return [`${indent}- ${inner[0].trimStart()}`, ...inner.slice(1)];
    });
  }
  const entries = Object.entries(value).filter((e): e is [string, YamlValue] => e[1] !== undefined);
  if (entries.length === 0) return [`${indent}{}`];
  return entries.flatMap(([k, v]) => {
    if (isScalar(v) || (Array.isArray(v) && v.every(isScalar)) || (!Array.isArray(v) && Object.keys(v).length === 0)) {
      return [`${indent}${key(k)}: ${lines(v, "")[0]}`];
    }
    return [`${indent}${key(k)}:`, ...lines(v, `${indent}  `)];
  });
}

/** A YAML document (no leading `---`), ending with a newline. */
export function toYaml(value: YamlValue): string {
  return `${lines(value, "").join("\n")}\n`;
}

// The shape of a JSON value for messages: types, key names and lengths, never a value (an
// answer may hold a token or a secret). "object{statusCode: number, response: array(3)}".

/** The shape of `value`, `depth` levels deep (keys of larger objects cut at 8). */
export function describeShape(value: unknown, depth = 2): string {
  if (value === null) return "null";
  if (Array.isArray(value)) {
    if (value.length === 0 || depth <= 0) return `array(${value.length})`;
    return `array(${value.length}) of ${describeShape(value[0], depth - 1)}`;
  }
  if (typeof value !== "object") return typeof value;
  const keys = Object.keys(value);
  if (depth <= 0) return `object(${keys.length} keys)`;
  const shown = keys
    .slice(0, 8)
    .map((key) => `${key}: ${describeShape((value as Record<string, unknown>)[key], depth - 1)}`);
  const more = keys.length > 8 ? `, +${keys.length - 8} more` : "";
  return `object{${shown.join(", ")}${more}}`;
}

/** The value at a dotted path ("data.items"; "" is the value itself), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  if (path === "") return value;
  let current = value;
  for (const key of path.split(".")) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

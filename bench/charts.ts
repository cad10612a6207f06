// BENCHMARKS.md's headline comparisons as pictures (issue 39, item 9): Mermaid bar charts, which
// GitHub renders from a ```mermaid block, each beside the table it draws. Horizontal bars, one per
// row, labelled as the row is: xychart-beta has no legend, so no meaning may hide in a colour.

/** Mermaid's quoted strings cannot hold a double quote. */
const quoted = (text: string) => `"${text.replace(/"/g, "'")}"`;

/** A round upper bound for the value axis (1, 2 or 5 × a power of ten). */
export function axisMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((bound) => bound >= value) ?? 10 * power;
}

/** A ```mermaid block: one horizontal bar per [label, value], in order; nothing without bars. */
export function barChart(title: string, axis: string, bars: [string, number][]): string[] {
  if (bars.length === 0) return [];
  const values = bars.map(([, value]) => Number(value.toFixed(2)));
  return [
    "```mermaid",
    "xychart-beta horizontal",
    `  title ${quoted(title)}`,
    `  x-axis [${bars.map(([label]) => quoted(label)).join(", ")}]`,
    `  y-axis ${quoted(axis)} 0 --> ${axisMax(Math.max(...values))}`,
    `  bar [${values.join(", ")}]`,
    "```",
    "",
  ];
}

// Aligned plain-text tables for the terminal (fleet's report, doctor's): one line per row, each
// column padded to its widest cell, two spaces between columns, the last column unpadded.
/** The line cut to `width` characters (code points), the cut marked with "…". */
export function fitWidth(line: string, width: number): string {
  const chars = [...line];
  if (chars.length <= width) return line;
  return width <= 1 ? chars.slice(0, width).join("") : `${chars.slice(0, width - 1).join("")}…`;
}

/** A terminal cell: one line (breaks as spaces), no control character (a name or message may carry them). */
function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\t\n\r\u0085\u2028\u2029]+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}

/** The header and rows aligned, each line cut to `width`; ends with a newline. */
export function alignedTable(header: string[], rows: string[][], width = Infinity): string {
  const table = [header, ...rows].map((row) => row.map(plain));
  const widths = header.map((_, i) => Math.max(...table.map((row) => [...(row[i] ?? "")].length)));
  const line = (row: string[]) =>
    fitWidth(
      row
        .map((c, i) => (i < row.length - 1 ? c.padEnd(widths[i]) : c))
        .join("  ")
        .trimEnd(),
      width,
    );
  return `${table.map(line).join("\n")}\n`;
}

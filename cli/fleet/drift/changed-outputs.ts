// The names a drift report gives a resource's change, the same whichever path checked it: the
// outputs that differ between the state and what the refresh read, an object's keys one level
// down (`fieldDigests.region`). Names only: the values are compared here and never kept.

type Props = Record<string, unknown>;

function isPlainObject(value: unknown): value is Props {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

export function changedOutputs(olds: Props, news: Props): string[] {
  const paths: string[] = [];
  for (const key of new Set([...Object.keys(olds), ...Object.keys(news)])) {
    const [a, b] = [olds[key], news[key]];
    if (same(a, b)) continue;
    if (isPlainObject(a) && isPlainObject(b)) {
      for (const sub of new Set([...Object.keys(a), ...Object.keys(b)]))
        if (!same(a[sub], b[sub])) paths.push(`${key}.${sub}`);
    } else paths.push(key);
  }
  return paths.sort();
}

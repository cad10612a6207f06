// One instance per provider process of each piece of machinery (a cache, the Add coalescer), made
// on first use by the module that owns it. Kept on globalThis, so two copies of a module (a
// symlinked install, a relative import in tests) still share one instance, hence one client and
// token per process. Tests reset them all at once (runtime.ts configureRuntime).
const KEY = Symbol.for("pulumi-embedded-connectors/process-locals");

interface Registry {
  values: Map<string, unknown>;
  resets: Map<string, () => void>;
}

function registry(): Registry {
  const holder = globalThis as { [KEY]?: Registry };
  holder[KEY] ??= { values: new Map(), resets: new Map() };
  return holder[KEY];
}

/**
 * The process's one `T` named `name`, made by `make` on first use; `reset` empties it for a
 * test (the instance itself stays, so that a module holding it keeps working).
 */
export function processLocal<T>(name: string, make: () => T, reset?: (value: T) => void): () => T {
  return () => {
    const { values, resets } = registry();
    if (!values.has(name)) {
      const value = make();
      values.set(name, value);
      if (reset) resets.set(name, () => reset(value));
    }
    return values.get(name) as T;
  };
}

/** Tests: empties every process-local instance made so far. */
export function resetProcessLocals(): void {
  for (const reset of registry().resets.values()) reset();
}

// A set-up that several test files share (a service, a stack, a fleet): made by the first of
// them to run and torn down after the last of them that this mocha process loaded, so that
// files run in one process make it once, and a file run alone makes it for itself. Mocha
// loads every file before it runs any, so the count of users is complete before the first
// `before`. Should a user's hooks never run (its tests all filtered out by --grep), a hook
// of the root suite tears the set-up down at the end of the run all the same.

export interface SharedSetUp<T> {
  /**
   * Call inside a `describe`: its `before` makes the set-up (or waits for the one made), its
   * `after` tears it down when it is the last user. The object it returns reads and writes
   * the set-up's own fields once `before` has run.
   */
  use(): T;
}

/**
 * `make` fills `into` as it goes, so that `tearDown` can undo a set-up that failed half-way;
 * `tearDown` gets whatever was filled. Call at a module's top level (the root hook is
 * registered then).
 */
export function sharedSetUp<T extends object>(
  make: (into: Partial<T>) => Promise<void>,
  tearDown: (made: Partial<T>) => Promise<void>,
): SharedSetUp<T> {
  let users = 0;
  let made: Partial<T> | undefined;
  let making: Promise<void> | undefined;
  const end = async (): Promise<void> => {
    const done = made;
    made = undefined;
    making = undefined;
    if (done) await tearDown(done);
  };
  after(async function () {
    this.timeout(10 * 60_000);
    await end();
  });
  return {
    use(): T {
      users += 1;
      let mine: Record<string | symbol, unknown> | undefined;
      const view = new Proxy({} as T, {
        get: (_target, key) => mine?.[key],
        set: (_target, key, value) => {
          if (!mine) return false;
          mine[key] = value;
          return true;
        },
      });
      before(async function () {
        this.timeout(30 * 60_000); // a cold engine build
        if (!making) {
          made = {};
          making = make(made);
        }
        mine = made as Record<string | symbol, unknown>;
        await making;
      });
      after(async function () {
        this.timeout(10 * 60_000);
        users -= 1;
        if (users === 0) await end();
      });
      return view;
    },
  };
}

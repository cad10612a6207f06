// The engine's steps in progress (engine-steps.ts) and the coalescer's rule built on them:
// when every step in progress is a create waiting for an Add, and they are as many as the
// engine runs at once, the open batches go out without waiting for a timer. The timers here
// are an hour long, so only that rule can send; the tests count event-loop turns, never time.
import assert from "node:assert/strict";
import { availableParallelism } from "node:os";
import { stableId } from "../../service/domain/ids";
import type { AddConnectorsResult, EmbeddedClient } from "../client";
import { AddCoalescer, type AddingClient, type AddOutcome } from "../added-connector/coalescer";
import { defaultParallelism, engineSteps, EngineSteps } from "./engine-steps";
import * as addedImpl from "../added-connector/steps";
import * as configurationImpl from "../connector-configuration/steps";
import { configureRuntime, runtime } from "./runtime";
import { configSourceFromGetter, noConfig } from "../settings/resolve";
import { declaredConnectors } from "../sub-account/process";

const HOUR = 3_600_000;

/** A few turns of the event loop: enough for a deferred check and the fake Add it sends. */
async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A promise to open later: a step that has not joined a batch yet, or a read in progress. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

function fakeClient(name: string): AddingClient & { batches: string[][] } {
  const batches: string[][] = [];
  return {
    batches,
    baseUrl: `http://${name}.invalid`,
    async *listAddedConnectors() {
      // an empty sub-account
    },
    async addConnectors(_accountId: string, connectorIds: readonly string[]): Promise<AddConnectorsResult> {
      batches.push([...connectorIds]);
      return { added: [], alreadyAdded: [...connectorIds], retried: false };
    },
  };
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => stableId("connector", `${prefix} ${i}`));

describe("engine steps: the Add goes out when no other create can arrive", () => {
  const coalescerWith = (steps: EngineSteps) => new AddCoalescer({ windowMs: HOUR, idleMs: HOUR, steps });
  /** A create as the engine's step: counted from the call, joins at once (or after `joinAfter`). */
  const create = (
    steps: EngineSteps,
    coalescer: AddCoalescer,
    client: AddingClient,
    id: string,
    joinAfter?: Promise<void>,
    accountId = "acct",
  ) =>
    steps.run(async (): Promise<AddOutcome> => {
      if (joinAfter) await joinAfter;
      return coalescer.add(client, accountId, id);
    });

  it("P creates in progress, all waiting: one Add with the P ids, no timer", async () => {
    const steps = new EngineSteps(4);
    const coalescer = coalescerWith(steps);
    const client = fakeClient("a");
    const wanted = ids("all waiting", 4);
    const creates = wanted.map((id) => create(steps, coalescer, client, id));
    await turns();
    assert.deepEqual(client.batches, [wanted]);
    assert.deepEqual(
      (await Promise.all(creates)).map((outcome) => outcome.owned),
      [false, false, false, false],
    );
    assert.equal(steps.inProgress, 0);
  });

  it("counts the waiting creates of every client and sub-account together, and sends every batch", async () => {
    const steps = new EngineSteps(4);
    const coalescer = coalescerWith(steps);
    const [one, two] = [fakeClient("one"), fakeClient("two")];
    const [a, b, c, d] = ids("across", 4);
    const creates = [
      create(steps, coalescer, one, a, undefined, "acct1"),
      create(steps, coalescer, one, b, undefined, "acct2"),
      create(steps, coalescer, two, c, undefined, "acct1"),
      create(steps, coalescer, two, d, undefined, "acct1"),
    ];
    await turns();
    assert.deepEqual(one.batches, [[a], [b]]);
    assert.deepEqual(two.batches, [[c, d]]);
    await Promise.all(creates);
  });

  it("P steps in progress, one a create not yet in a batch: no Add until it joins", async () => {
    const steps = new EngineSteps(4);
    const coalescer = coalescerWith(steps);
    const client = fakeClient("b");
    const wanted = ids("late joiner", 4);
    const late = gate();
    const creates = wanted.map((id, i) => create(steps, coalescer, client, id, i === 3 ? late.opened : undefined));
    await turns();
    assert.deepEqual(client.batches, []);
    late.open();
    await turns();
    assert.deepEqual(client.batches, [wanted]);
    await Promise.all(creates);
  });

  it("P steps in progress, one a read: no Add, nor when the read ends; the next create fills it", async () => {
    const steps = new EngineSteps(4);
    const coalescer = coalescerWith(steps);
    const client = fakeClient("c");
    const wanted = ids("beside a read", 4);
    const reading = gate();
    const read = steps.run(() => reading.opened);
    const creates = wanted.slice(0, 3).map((id) => create(steps, coalescer, client, id));
    await turns();
    assert.deepEqual(client.batches, []);
    reading.open();
    await read;
    await turns();
    assert.deepEqual(client.batches, [], "a step that ends leaves fewer in progress than the engine runs");
    creates.push(create(steps, coalescer, client, wanted[3]));
    await turns();
    assert.deepEqual(client.batches, [wanted]);
    await Promise.all(creates);
  });

  it("learns a larger --parallel: with 4 steps seen at once, 2 waiting creates are not enough", async () => {
    // The default of 2 alone sends 2 waiting creates...
    const fresh = new EngineSteps(2);
    const control = fakeClient("control");
    const controlCoalescer = coalescerWith(fresh);
    const sent = ids("control", 2).map((id) => create(fresh, controlCoalescer, control, id));
    await turns();
    assert.equal(control.batches.length, 1);
    await Promise.all(sent);

    // ...but not once 4 steps were in progress at once.
    const steps = new EngineSteps(2);
    const coalescer = coalescerWith(steps);
    const client = fakeClient("d");
    const wanted = ids("learned", 4);
    const reading = gate();
    const reads = [1, 2, 3].map(() => steps.run(() => reading.opened));
    const creates = [create(steps, coalescer, client, wanted[0])];
    assert.equal(steps.estimate(), 4);
    await turns();
    reading.open();
    await Promise.all(reads);
    creates.push(create(steps, coalescer, client, wanted[1]));
    await turns();
    assert.equal(steps.inProgress, 2);
    assert.deepEqual(client.batches, [], "2 of an estimated 4 are waiting");
    creates.push(create(steps, coalescer, client, wanted[2]), create(steps, coalescer, client, wanted[3]));
    await turns();
    assert.deepEqual(client.batches, [wanted]);
    await Promise.all(creates);
  });

  it("creates outside any counted step never trigger the rule (waiting must equal in progress)", async () => {
    const steps = new EngineSteps(1);
    const coalescer = new AddCoalescer({ windowMs: HOUR, idleMs: HOUR, maxBatch: 2, steps });
    const client = fakeClient("e");
    const [a, b] = ids("uncounted", 2);
    const first = coalescer.add(client, "acct", a);
    await turns();
    assert.deepEqual(client.batches, []);
    // maxBatch still sends (and closes the batch, so no timer is left).
    const second = coalescer.add(client, "acct", b);
    await Promise.all([first, second]);
    assert.deepEqual(client.batches, [[a, b]]);
  });
});

describe("engine steps: the count and the estimate", () => {
  it("PULUMI_PARALLEL when a positive integer, else 4 × GOMAXPROCS or the CPUs", () => {
    assert.equal(defaultParallelism({ PULUMI_PARALLEL: "12" }, 3), 12);
    assert.equal(defaultParallelism({ PULUMI_PARALLEL: "+7", GOMAXPROCS: "5" }, 3), 7);
    for (const junk of ["0", "-4", "abc", "1.5", " 3", "", "1e3", "99999999999999999999"]) {
      assert.equal(defaultParallelism({ PULUMI_PARALLEL: junk }, 3), 12, JSON.stringify(junk));
    }
    assert.equal(defaultParallelism({}, 3), 12);
    assert.equal(defaultParallelism({ GOMAXPROCS: "5" }, 3), 20);
    assert.equal(defaultParallelism({ GOMAXPROCS: "none" }, 3), 12);
    assert.equal(defaultParallelism({}), availableParallelism() * 4);
    assert.equal(new EngineSteps().defaultParallel, defaultParallelism());
  });

  it("the estimate is the default until more steps are seen at once", async () => {
    const steps = new EngineSteps(3);
    assert.equal(steps.estimate(), 3);
    const running = gate();
    const all = Array.from({ length: 5 }, () => steps.run(() => running.opened));
    assert.equal(steps.inProgress, 5);
    running.open();
    await Promise.all(all);
    assert.equal(steps.inProgress, 0);
    assert.equal(steps.estimate(), 5);
  });

  it("a step that throws (or rejects) is no longer in progress", async () => {
    const steps = new EngineSteps(2);
    await assert.rejects(
      steps.run(async () => Promise.reject(new Error("rejected"))),
      /rejected/,
    );
    const throwsAtOnce = (): Promise<never> => {
      throw new Error("thrown");
    };
    await assert.rejects(steps.run(throwsAtOnce), /thrown/);
    assert.equal(steps.inProgress, 0);
    assert.equal(steps.mostAtOnce, 1);
  });

  describe("the *-impl modules", () => {
    /** Settings read through a getter that notes how many steps are in progress at each read. */
    function spyingConfig(config: Record<string, string> = {}, client?: EmbeddedClient): number[] {
      const seen: number[] = [];
      const get = (key: string): string | undefined => {
        seen.push(engineSteps().inProgress);
        return config[key];
      };
      configureRuntime(configSourceFromGetter({ get }), client);
      return seen;
    }
    const warn = runtime().warn;
    afterEach(() => {
      runtime().warn = warn;
      configureRuntime(noConfig);
    });

    it("count create, read, update, remove and import while they run, thrown or not", async () => {
      const before = engineSteps().inProgress;
      const seen = spyingConfig(); // no settings: every operation fails, its step ends all the same
      await assert.rejects(addedImpl.create({ connectorId: "0123456789abcdef", accountId: "acct" }));
      await assert.rejects(addedImpl.read("acct/0123456789abcdef"));
      await assert.rejects(addedImpl.update("acct/0123456789abcdef", {}, {}));
      await assert.rejects(addedImpl.remove("acct/0123456789abcdef", {}));
      await assert.rejects(
        configurationImpl.create({ connectorId: "0123456789abcdef", accountId: "acct", secretConfig: {} }),
      );
      await assert.rejects(configurationImpl.importExisting("acct/0123456789abcdef"));
      assert.ok(seen.length >= 6);
      assert.deepEqual(new Set(seen), new Set([before + 1]));
      let during = -1;
      runtime().warn = () => (during = engineSteps().inProgress);
      declaredConnectors().add("acct/0123456789abcdef"); // the program keeps the connector: remove warns
      await configurationImpl.remove("acct/0123456789abcdef");
      assert.equal(during, before + 1);
      assert.equal(engineSteps().inProgress, before);
    });

    it("do not count check and diff: the engine runs them outside --parallel", async () => {
      const before = engineSteps().inProgress;
      const client = {
        baseUrl: "http://fake.invalid",
        getConfiguration: async () => {
          seen.push(engineSteps().inProgress);
          throw new Error("not reachable");
        },
      } as unknown as EmbeddedClient;
      const seen = spyingConfig(
        { "embedded:baseUrl": "http://fake.invalid", "embedded:clientId": "id", "embedded:clientSecret": "secret" },
        client,
      );
      const id = "0123456789abcdef";
      await addedImpl.check({}, { connectorId: id });
      await addedImpl.diff(`acct/${id}`, { connectorId: id, accountId: "acct" }, { connectorId: id });
      await configurationImpl.check({}, { connectorId: id, accountId: "acct", secretConfig: { a: 1 } });
      await configurationImpl.diff(`acct/${id}`, { connectorId: id, accountId: "acct" }, { connectorId: id });
      assert.ok(seen.length >= 4);
      assert.deepEqual(new Set(seen), new Set([before]));
    });
  });
});

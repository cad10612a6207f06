// Errors read once: what the dynamic-provider host prints to stderr for a failed operation
// (it calls console.error(`${e}: ${e.stack}`) before handing the error to the engine, which
// prints the message again). The host's call is reproduced here as it is written in
// @pulumi/pulumi/cmd/dynamic-provider/index.js.
import { strict as assert } from "node:assert";
import { reportOnce } from "./report-once";

/** Runs `operation` as the host does for delete, and returns what reached stderr. */
async function hostDelete(operation: () => Promise<void>): Promise<{ stderr: string; error: unknown }> {
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    written.push(chunk.toString());
    return true;
  }) as typeof process.stderr.write;
  let caught: unknown;
  try {
    await reportOnce(operation);
  } catch (e) {
    caught = e;
    // The host's line, verbatim.
    console.error(`${e}: ${(e as Error).stack}`);
  } finally {
    process.stderr.write = write;
  }
  return { stderr: written.join(""), error: caught };
}

describe("errors read once (provider/dynamic/report-once)", () => {
  it("keeps an expected refusal off stderr: the engine prints its message once", async () => {
    const refusal = new Error("cannot remove connector Amazon S3 (48e6ff62fb2b1dfa): it is used in connections");
    const { stderr, error } = await hostDelete(async () => {
      throw refusal;
    });
    assert.equal(error, refusal, "the error still fails the operation, unchanged");
    assert.equal(stderr, "");
  });

  it("prints a programming error's stack once, without the doubled message", async () => {
    const { stderr, error } = await hostDelete(async () => {
      const props = undefined as unknown as { id: string };
      void props.id;
    });
    assert.ok(error instanceof TypeError);
    const message = (error as TypeError).message;
    assert.equal(stderr.split(message).length - 1, 1, `the message once in: ${stderr}`);
    assert.match(stderr, /^TypeError: .*\n\s+at /, "the stack is kept");
  });

  it("leaves other console.error output alone", async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      written.push(chunk.toString());
      return true;
    }) as typeof process.stderr.write;
    try {
      await reportOnce(async () => {
        throw new Error("refused");
      }).catch(() => undefined);
      console.error("something else");
    } finally {
      process.stderr.write = write;
    }
    assert.equal(written.join(""), "something else\n");
  });
});

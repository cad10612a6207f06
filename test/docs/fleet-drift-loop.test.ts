// docs/fleets.md's "The nightly drift loop": its acknowledged.yaml is read by the fleet's own
// parser against the example fleet's stacks, entry by entry (the night's command itself is run
// as written by test/e2e/fleet-drift-loop.test.ts).
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { parseAcknowledged } from "../../cli/fleet/drift/acknowledged";
import { readProject } from "../../cli/fleet/project";

const ROOT = path.resolve(__dirname, "..", "..", "..");

describe("docs: the nightly drift loop's acknowledged file", () => {
  it("parses as written, against the example fleet's stacks", async () => {
    const doc = await fs.readFile(path.join(ROOT, "docs", "fleets.md"), "utf8");
    const at = doc.indexOf("\n## The nightly drift loop\n");
    assert.ok(at >= 0, "docs/fleets.md has the section");
    const body = doc.slice(at + 1).split(/\n## /)[0];
    const block = /```yaml\n(# acknowledged\.yaml\n[\s\S]*?)```/.exec(body)?.[1];
    assert.ok(block, "the section shows acknowledged.yaml");
    const project = await readProject(path.join(ROOT, "examples", "fleet"));
    const parsed = parseAcknowledged(block, "acknowledged.yaml", project.stacks);
    assert.deepEqual(
      parsed.entries.map((e) => [e.kind, e.stack]),
      [
        ["field", "acme-eu"],
        ["unmanaged", "globex-main"],
      ],
    );
  });
});

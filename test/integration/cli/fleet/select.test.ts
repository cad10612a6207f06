// Which stacks a fleet command runs: --changed-since against a real git repository (a changed
// stack file selects its stack, any other program file selects all), --stacks, --shard.
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { readProject } from "../../../../cli/fleet/project";
import { changedStacks, parseShard, selectStacks, shardOf } from "../../../../cli/fleet/select";

const execFileAsync = promisify(execFile);

describe("cli: fleet stack selection", function () {
  this.timeout(60_000); // git in a temporary repository
  let repo: string;
  let dir: string;
  const git = (...args: string[]) =>
    execFileAsync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repo });

  beforeEach(async () => {
    repo = await fs.mkdtemp(path.join(os.tmpdir(), "fleet-select-"));
    dir = path.join(repo, "infra", "fleet");
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, "Pulumi.yaml"), "name: fleet\nruntime: nodejs\n");
    await fs.writeFile(path.join(dir, "index.ts"), "export default async () => ({});\n");
    for (const s of ["a", "b", "c"])
      await fs.writeFile(path.join(dir, `Pulumi.${s}.yaml`), `config:\n  fleet:accountId: "${s}"\n`);
    await fs.writeFile(path.join(repo, "README.md"), "outside the program\n");
    await git("init", "-q", "-b", "main");
    await git("add", "-A");
    await git("commit", "-q", "-m", "base");
  });

  afterEach(async () => {
    await fs.rm(repo, { recursive: true, force: true });
  });

  it("a changed stack file selects exactly its stack; files outside the program and untracked reports select none", async () => {
    await fs.writeFile(path.join(dir, "Pulumi.b.yaml"), `config:\n  fleet:accountId: "b2"\n`);
    await fs.writeFile(path.join(repo, "README.md"), "changed, but not the program\n");
    await git("commit", "-q", "-am", "b");
    await fs.writeFile(path.join(dir, "drift.json"), "{}"); // a report written beside the program
    assert.deepEqual(await changedStacks(await readProject(dir), "HEAD~1"), { stacks: ["b"] });
    const selected = await selectStacks(await readProject(dir), { changedSince: "HEAD~1" });
    assert.deepEqual(selected.stacks, ["b"]);
  });

  it("a new stack file (committed or not yet) selects its stack; an uncommitted edit counts", async () => {
    await fs.writeFile(path.join(dir, "Pulumi.d.yaml"), "config: {}\n");
    await fs.appendFile(path.join(dir, "Pulumi.a.yaml"), "  fleet:customer: acme\n");
    assert.deepEqual((await selectStacks(await readProject(dir), { changedSince: "HEAD" })).stacks, ["a", "d"]);
  });

  it("a change to the program itself selects every stack", async () => {
    await fs.appendFile(path.join(dir, "index.ts"), "// changed\n");
    await git("commit", "-q", "-am", "program");
    const changed = await changedStacks(await readProject(dir), "HEAD~1");
    assert.deepEqual(changed.stacks, ["a", "b", "c"]);
    assert.match(changed.allBecause ?? "", /infra\/fleet\/index\.ts/);
  });

  it("--changed-since refuses a ref that names no commit, and an option-shaped ref writes no file", async () => {
    const project = await readProject(dir);
    const written = path.join(repo, "written-by-git-diff.txt");
    for (const ref of [`--output=${written}`, "-p", "no-such-branch", "HEAD:infra", ""]) {
      await assert.rejects(
        selectStacks(project, { changedSince: ref }),
        (error: Error) => /--changed-since .* names no commit/.test(error.message) && !/\n\s+at /.test(error.message),
        `ref ${JSON.stringify(ref)}`,
      );
    }
    await assert.rejects(fs.stat(written), /ENOENT/, "git diff --output wrote a file");
    const head = (await git("rev-parse", "HEAD")).stdout.trim();
    assert.deepEqual((await changedStacks(project, head)).stacks, [], "a commit id is a ref");
  });

  it("--stacks names stacks that have files; an unknown one is refused with the known ones", async () => {
    const project = await readProject(dir);
    assert.deepEqual((await selectStacks(project, { stacks: "c,a" })).stacks, ["a", "c"]);
    await assert.rejects(selectStacks(project, { stacks: "a,zz" }), /no stack file for zz .*its stacks: a, b, c/);
  });

  it("--shard i/n: every stack in exactly one shard, and a stack keeps its shard when others are added", async () => {
    const project = await readProject(dir);
    const stacks = Array.from({ length: 200 }, (_, i) => `sub-${i}`);
    /** The shard `selectStacks` puts each stack in; a stack in no shard or in two fails. */
    const shardsOf = async (names: string[], n: number): Promise<Map<string, number>> => {
      const shards = new Map<string, number>();
      for (let i = 1; i <= n; i++) {
        for (const s of (await selectStacks({ ...project, stacks: names }, { shard: `${i}/${n}` })).stacks) {
          assert.ok(!shards.has(s), `${s} is in shards ${shards.get(s)} and ${i} of ${n}`);
          shards.set(s, i);
        }
      }
      assert.deepEqual([...shards.keys()].sort(), [...names].sort(), `every stack is in one of ${n} shards`);
      return shards;
    };
    for (const n of [1, 3, 8]) {
      const counts = new Array<number>(n).fill(0);
      for (const s of stacks) counts[shardOf(s, n) - 1] += 1;
      const shards = await shardsOf(stacks, n);
      assert.ok(
        counts.every((c) => c > 0),
        `every one of ${n} shards gets stacks: ${counts.join(",")}`,
      );
      // Stacks added before, among and after the others (sorted or not) move no stack.
      const grown = await shardsOf(["aaa-new", ...stacks.slice(0, 100), "sub-50a", ...stacks.slice(100), "zzz-new"], n);
      for (const s of stacks) assert.equal(grown.get(s), shards.get(s), `${s} keeps shard ${shards.get(s)} of ${n}`);
    }
    assert.deepEqual(parseShard("2/4"), { index: 2, count: 4 });
    for (const bad of ["0/4", "5/4", "2", "a/b", "1/0"]) assert.throws(() => parseShard(bad), /--shard must be i\/n/);
  });
});

// The fleet's fast path reads the checkpoint of the backend the CLI would use,
// chosen as the CLI chooses it (pulumi v3.248.0, pkg/workspace/creds.go GetCurrentCloudURL):
// PULUMI_BACKEND_URL, else the project's backend.url (Pulumi.json, Pulumi.yaml, Pulumi.yml, parsed
// as YAML), else the login's `current`. A regex used to miss backend.url after a comment line,
// with CRLF line ends or in flow style, and read the logged-in backend's stale checkpoint: a
// false "clean".
import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import * as path from "node:path";
import { chooseBackend } from "./backend";
import { readProject } from "../project";

describe("fleet drift: which backend's checkpoint the fast path reads", () => {
  let root: string;
  let project: string;
  let home: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "fleet-backend-"));
    project = path.join(root, "program");
    home = path.join(root, "home");
    mkdirSync(project);
    mkdirSync(home);
    // The login: another backend, whose checkpoints would be stale.
    writeFileSync(path.join(home, "credentials.json"), JSON.stringify({ current: `file://${root}/logged-in` }));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PULUMI_HOME: home, ...extra });
  const dirFor = async (projectFile: string, text: string, extra?: NodeJS.ProcessEnv) => {
    writeFileSync(path.join(project, projectFile), text);
    const found = chooseBackend(project, env(extra));
    return "dir" in found ? found.dir : "url" in found ? `url: ${found.url}` : `reason: ${found.reason}`;
  };
  const PROJECT_STATE = () => path.join(project, "state");

  it("the project's backend.url in every form YAML allows, never the logged-in backend", async () => {
    const forms: Record<string, string> = {
      block: "name: fleet\nruntime: nodejs\nbackend:\n  url: file://./state\n",
      "a comment line before url":
        "name: fleet\nruntime: nodejs\nbackend:\n  # the team's bucket\n  url: file://./state\n",
      "CRLF line ends": "name: fleet\r\nruntime: nodejs\r\nbackend:\r\n  url: file://./state\r\n",
      "flow style": "name: fleet\nruntime: nodejs\nbackend: { url: file://./state }\n",
      "double-quoted": 'name: fleet\nruntime: nodejs\nbackend:\n  url: "file://./state"\n',
      "single-quoted, with a trailing comment":
        "name: fleet\nruntime: nodejs\nbackend:\n  url: 'file://./state' # here\n",
      "deeper indentation, a blank line": "name: fleet\nruntime: nodejs\nbackend:\n\n      url: file://./state\n",
      "a document marker and a tab-free anchor":
        "---\nname: fleet\nruntime: nodejs\nb: &u file://./state\nbackend:\n  url: *u\n",
    };
    for (const [form, text] of Object.entries(forms))
      assert.equal(await dirFor("Pulumi.yaml", text), PROJECT_STATE(), form);
    rmSync(path.join(project, "Pulumi.yaml"));
    assert.equal(await dirFor("Pulumi.yml", forms["flow style"]), PROJECT_STATE(), "Pulumi.yml");
    // Pulumi.json comes first in the CLI's order.
    writeFileSync(path.join(project, "Pulumi.yaml"), "name: fleet\nruntime: nodejs\nbackend:\n  url: file://./other\n");
    const json = JSON.stringify({ name: "fleet", runtime: "nodejs", backend: { url: "file://./state" } });
    assert.equal(await dirFor("Pulumi.json", json), PROJECT_STATE(), "Pulumi.json before Pulumi.yaml");
  });

  it("PULUMI_BACKEND_URL first, then the project's, then the login's; ~ and relative paths as the CLI resolves them", async () => {
    const withUrl = "name: fleet\nruntime: nodejs\nbackend:\n  url: file://./state\n";
    assert.equal(await dirFor("Pulumi.yaml", withUrl, { PULUMI_BACKEND_URL: `file://${root}/env` }), `${root}/env`);
    assert.equal(await dirFor("Pulumi.yaml", withUrl, { PULUMI_BACKEND_URL: "" }), PROJECT_STATE(), "empty is unset");
    const without = "name: fleet\nruntime: nodejs\n";
    assert.equal(await dirFor("Pulumi.yaml", without), `${root}/logged-in`);
    assert.equal(
      await dirFor("Pulumi.yaml", "name: fleet\nruntime: nodejs\nbackend:\n  url: ''\n"),
      `${root}/logged-in`,
    );
    // PULUMI_CREDENTIALS_PATH's login before PULUMI_HOME's.
    const creds = path.join(root, "creds");
    mkdirSync(creds);
    writeFileSync(
      path.join(creds, "credentials.json"),
      JSON.stringify({ current: "file://~/fleet-state?no_tmp_dir=1" }),
    );
    assert.equal(
      await dirFor("Pulumi.yaml", without, { PULUMI_CREDENTIALS_PATH: creds }),
      path.join(homedir(), "fleet-state"),
    );
  });

  it("goes to the engine, saying why, when the backend cannot be told or is not one it reads", async () => {
    const reasons: [string, NodeJS.ProcessEnv, RegExp][] = [
      ["name: fleet\nruntime: nodejs\nbackend:\n  url: [file://./state\n", {}, /Pulumi\.yaml does not parse as YAML/],
      ["name: fleet\nruntime: nodejs\nbackend: file://./state\n", {}, /backend is not a mapping/],
      ["name: fleet\nruntime: nodejs\nbackend:\n  url: 3\n", {}, /backend\.url is not a string/],
      ["name: fleet\nruntime: nodejs\n", { PULUMI_HOME: path.join(root, "nobody") }, /no backend is set/],
      [
        "name: fleet\nruntime: nodejs\nbackend:\n  url: postgres://fleet:hunter2-canary@db/state\n",
        {},
        /the backend postgres:\/\/db\/state is not one the fast path reads \(file:\/\/, s3:\/\/, azblob:\/\/, gs:\/\/\)/,
      ],
      [
        "name: fleet\nruntime: nodejs\n",
        { PULUMI_BACKEND_URL: "https://api.pulumi.com" },
        /is not one the fast path reads/,
      ],
    ];
    for (const [text, extra, expected] of reasons) {
      const found = await dirFor("Pulumi.yaml", text, extra);
      assert.match(found, expected, text);
      assert.ok(!found.includes("hunter2-canary"), "a URL's credentials are never shown");
    }
    writeFileSync(path.join(home, "credentials.json"), "{ not json");
    assert.match(await dirFor("Pulumi.yaml", "name: fleet\nruntime: nodejs\n"), /credentials\.json does not parse/);
  });

  it("reads the project's name and runtime with the same parser (comments, CRLF, flow style)", async () => {
    writeFileSync(
      path.join(project, "Pulumi.yaml"),
      "# the fleet\r\nname: 'fleet'\r\nruntime: { name: nodejs, options: { typescript: false } }\r\nmain: src/\r\n",
    );
    writeFileSync(path.join(project, "Pulumi.acme.yaml"), "config: {}\n");
    const read = await readProject(project);
    assert.deepEqual(
      { name: read.name, runtime: read.runtime, main: read.main, stacks: read.stacks },
      { name: "fleet", runtime: "nodejs", main: "src/", stacks: ["acme"] },
    );
  });
});

// The fleet reads every Pulumi file as the CLI does (a YAML parser, never a
// pattern), trims the passphrase file as Pulumi does (Go's strings.TrimSpace), and writes a
// connector value holding a control character so that Pulumi can read the stack file back.
import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parse } from "yaml";
import { goTrimSpace, passphraseFromEnv } from "./drift/passphrase";
import { renderStackFile } from "./new";
import { readProject } from "./project";
import { encryptedContentOf } from "./stack-file";

describe("cli: the fleet reads what the Pulumi CLI reads", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "fleet-reads-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("Pulumi.yaml: name, runtime and main in every form YAML allows", async () => {
    const forms: Record<string, string> = {
      "runtime.options before name":
        "runtime:\n  options:\n    typescript: false\n  name: nodejs\nmain: src/\nname: fleet\n",
      "runtime: { name: nodejs }": "name: fleet\nruntime: { name: nodejs }\nmain: src/\n",
      "CRLF and comments": "# the fleet\r\nname: fleet # its name\r\nruntime: nodejs\r\n# where\r\nmain: src/\r\n",
      "flow style": "{name: fleet, runtime: {name: nodejs, options: {typescript: false}}, main: 'src/'}\n",
      "quoted, a document marker": '---\nname: "fleet"\nruntime: \'nodejs\'\nmain: "src/"\n',
    };
    writeFileSync(path.join(dir, "Pulumi.acme.yaml"), "config: {}\n");
    for (const [form, text] of Object.entries(forms)) {
      writeFileSync(path.join(dir, "Pulumi.yaml"), text);
      const read = await readProject(dir);
      assert.deepEqual(
        { name: read.name, runtime: read.runtime, main: read.main, stacks: read.stacks },
        { name: "fleet", runtime: "nodejs", main: "src/", stacks: ["acme"] },
        form,
      );
    }
  });

  it("a stack file's encryption state and secure: values, read with the yaml package (CRLF, comments, flow)", () => {
    const held: Record<string, [string, RegExp]> = {
      CRLF: ["encryptionsalt: v1:abc\r\nconfig:\r\n  fleet:k:\r\n    secure: v1:xyz\r\n", /encryptionsalt.*fleet:k/],
      "a comment between": ["config:\n  # a secret\n  fleet:k:\n    # here\n    secure: v1:xyz\n", /fleet:k/],
      flow: ["{secretsprovider: 'awskms://alias/x', config: {fleet:k: {secure: v1:xyz}}}\n", /secretsprovider/],
    };
    for (const [form, [text, expected]] of Object.entries(held))
      assert.match(encryptedContentOf(text, "Pulumi.s.yaml") ?? "nothing", expected, form);
    assert.equal(encryptedContentOf("# only a comment\r\nconfig: {}\r\n", "Pulumi.s.yaml"), undefined);
    // A file that does not parse: named with its line, never its text.
    const refused = encryptedContentOf("config:\n  fleet:k: [hunter2-canary\n", "Pulumi.s.yaml") ?? "";
    assert.match(refused, /^Pulumi\.s\.yaml does not parse as YAML.*cannot be told$/);
    assert.ok(!refused.includes("hunter2-canary"));
  });

  it("PULUMI_CONFIG_PASSPHRASE_FILE trimmed as Pulumi trims it (strings.TrimSpace)", () => {
    const file = path.join(dir, "passphrase");
    const read = (text: string) => {
      writeFileSync(file, text);
      return passphraseFromEnv({ PULUMI_CONFIG_PASSPHRASE_FILE: file });
    };
    for (const text of ["pw", "pw\n", "pw \n", "pw\n\n", "\tpw\r\n", " pw\u0085", "\u00a0pw\u2028"])
      assert.equal(read(text), "pw", JSON.stringify(text));
    // Go keeps what is not white space to it: the byte-order mark, inner spaces.
    assert.equal(read("\ufeffpw\n"), "\ufeffpw");
    assert.equal(read(" two words \n"), "two words");
    assert.equal(goTrimSpace("\v\f pw \u3000"), "pw");
    // The variable itself is taken as it is, as Pulumi does.
    assert.equal(passphraseFromEnv({ PULUMI_CONFIG_PASSPHRASE: " pw \n" }), " pw \n");
  });

  it("a connector value holding U+007F–U+009F is escaped in the stack file, and reads back as it was", () => {
    const values = { del: "a\u007fb", c1: "x\u0080\u0085\u009fy", sep: "p\u2028q", tab: "t\tu" };
    const text = renderStackFile({ dir, name: "fleet", runtime: "nodejs", stacks: [] }, "s", {
      accountId: "0239a5bbdbe54316",
      connectors: { pg: { name: "PostgreSQL", supportedType: "Source", values } },
    });
    // Go's YAML reader (Pulumi's) refuses these raw, even quoted: "control characters are not allowed".
    // eslint-disable-next-line no-control-regex
    const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/.exec(text);
    assert.equal(raw, null, `a raw U+${raw?.[0].charCodeAt(0).toString(16).padStart(4, "0")} in the stack file`);
    const config = (parse(text) as { config: Record<string, { pg: { values: unknown } }> }).config;
    assert.deepEqual(config["fleet:connectors"].pg.values, values);
  });
});

// A value written in plain in the project's files is no secret; one the word "secret" precedes,
// one inside a longer word, or one written nowhere is (hosts/plugin/invoke.ts quotes only the former).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { projectTexts, writtenInPlain } from "./written-in-plain";

describe("project: a value written in plain in the project", () => {
  it("a literal of the program or a plain stack config value: yes; beside `secret`, inside a word or absent: no", () => {
    const texts = [
      'found = embedded.find_connector(name="Amazon S4", supported_type="Source")\n',
      "config:\n  proj:lookupName: Segment Typo\n  proj:hidden:\n    secure: v1:AAAA\n",
      'name = pulumi.Output.secret("Hidden Name")\nx := pulumi.ToSecret(pulumi.String("Other Hidden"))\n',
      "  name:\n    fn::secret: Yaml Hidden\nlabel: Amazon S3X\n",
    ];
    assert.equal(writtenInPlain("Amazon S4", texts), true);
    assert.equal(writtenInPlain("Source", texts), true);
    assert.equal(writtenInPlain("Segment Typo", texts), true);
    for (const value of ["Hidden Name", "Other Hidden", "Yaml Hidden", "Amazon S3", "v1:AAAA ", "", "absent"]) {
      assert.equal(writtenInPlain(value, texts), false, value);
    }
  });

  it("for the policy pack, only a real marker makes a secret: a key named secret-something is plain", () => {
    const texts = [
      'cfg = embedded.ConnectorConfiguration("s3", secret_config={"secretAccessKey": "Py-Plain-Canary"})\n',
      "      secretConfig: { password: 'Ts-Plain-Canary' },\n",
      "        secretAccessKey: Yaml-Plain-Canary\n",
      'x := pulumi.ToSecret(pulumi.String("Go-Marked"))\npw = config.require_secret("Py-Marked")\n',
      "  name:\n    fn::secret: Yaml-Marked\nk = pulumi.secret('Ts-Marked')\n",
    ];
    for (const value of ["Py-Plain-Canary", "Ts-Plain-Canary", "Yaml-Plain-Canary"]) {
      assert.equal(writtenInPlain(value, texts, "plain"), true, value);
      assert.equal(writtenInPlain(value, texts), false, `${value}: for the plugin's invoke, a doubt stays a secret`);
    }
    for (const value of ["Go-Marked", "Py-Marked", "Yaml-Marked", "Ts-Marked"])
      assert.equal(writtenInPlain(value, texts, "plain"), false, value);
  });

  it("reads the sources beside the project file and in its main directory, not a data file or a folder below", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "written-in-plain-"));
    try {
      writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: go\nmain: src/\n");
      mkdirSync(path.join(dir, "src"));
      mkdirSync(path.join(dir, "vendor"));
      writeFileSync(
        path.join(dir, "src", "main.go"),
        'embedded.FindConnector(ctx, &embedded.FindConnectorArgs{Name: "In Main"})\n',
      );
      writeFileSync(path.join(dir, "name.txt"), "In A Text File\n");
      writeFileSync(path.join(dir, "vendor", "x.go"), '"In Vendor"\n');
      const texts = projectTexts(path.join(dir, "src"));
      assert.equal(writtenInPlain("In Main", texts), true);
      assert.equal(writtenInPlain("In A Text File", texts), false);
      assert.equal(writtenInPlain("In Vendor", texts), false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("in a stack's config file, a value under a key named secret-something is plain all the same", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "written-in-plain-"));
    try {
      writeFileSync(path.join(dir, "Pulumi.yaml"), "name: p\nruntime: yaml\n");
      writeFileSync(path.join(dir, "Pulumi.dev.yaml"), "config:\n  p:secretAccessKey: Plain-In-Stack-File\n");
      writeFileSync(path.join(dir, "main.yaml"), 'x:\n  fn::secret: "Marked-In-Program"\n');
      const texts = projectTexts(dir);
      assert.equal(writtenInPlain("Plain-In-Stack-File", texts), true);
      assert.equal(writtenInPlain("Marked-In-Program", texts), false, "a program's fn::secret still marks a secret");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The generator's text: a pure function of the sub-account's views. Password values never
// reach it (the service does not return them); the test still plants one to prove the
// generator would not print it.
import { strict as assert } from "node:assert";
import * as ts from "typescript";
import { literalOf, renderProgram, type ConnectorSnapshot } from "./";

const PLANTED = "planted-password-value-3f9a";

const connectors: ConnectorSnapshot[] = [
  {
    connectorId: "429b6c0a4f64274d",
    name: "Segment",
    supportedType: "Source",
    configuration: {
      secretName: "sub-239a/segment",
      fields: [
        { id: "apiKey", label: "API key", type: "Password", required: true, readonly: false, value: PLANTED },
        { id: "workspace", label: "Workspace", type: "Text", required: true, readonly: false, value: "acme" },
        { id: "batchSize", label: "Batch size", type: "Number", required: true, readonly: false, value: "500" },
        {
          id: "eventTypes",
          label: "Event types",
          type: "Multi-Select",
          required: false,
          readonly: false,
          value: "track,identify",
        },
        { id: "backfillFrom", label: "Backfill from", type: "Date", required: false, readonly: false },
        {
          id: "apiBaseUrl",
          label: "API base URL",
          type: "Text",
          required: false,
          readonly: true,
          value: "https://api.example.com",
        },
      ],
    },
  },
  { connectorId: "5b0a1b2c3d4e5f60", name: "Segment", supportedType: "Destination" },
  { connectorId: "48e6ff62fb2b1dfa", name: "Amazon S3", supportedType: "Source" },
];

describe("cli: generate's program text", () => {
  const { program, secrets, commands } = renderProgram("239a5bbdbe543163", connectors);

  it("declares one adopting AddedConnector per connector and one adopting configuration per configured one", () => {
    assert.equal((program.match(/new ec\.AddedConnector\(/g) ?? []).length, 3);
    assert.equal((program.match(/adoptExisting: true/g) ?? []).length, 3 + 1);
    assert.equal((program.match(/new ec\.ConnectorConfiguration\(/g) ?? []).length, 1);
    assert.match(program, /const accountId = "239a5bbdbe543163";/);
    assert.match(program, /import \* as ec from "pulumi-embedded-connectors";/);
  });

  it("gives same-named connectors distinct names", () => {
    assert.match(program, /const segment = new ec\.AddedConnector\("segment"/);
    assert.match(program, /^new ec\.AddedConnector\("segment-destination"/m);
    assert.match(program, /^new ec\.AddedConnector\("amazon-s3"/m);
  });

  it("reads Password fields from named secret config keys and never prints a value", () => {
    assert.ok(!program.includes(PLANTED));
    assert.ok(!commands.join("\n").includes(PLANTED));
    assert.deepEqual(
      secrets.map((s) => s.key),
      ["segmentApiKey"],
    );
    assert.deepEqual(commands, ["pulumi config set --secret segmentApiKey"]);
    assert.match(program, /"apiKey": config\.requireSecret\("segmentApiKey"\)/);
    assert.match(program, /\/\/ {3}pulumi config set --secret segmentApiKey {3}# Segment: API key/);
  });

  it("writes non-Password values literally with their types, and leaves out read-only and empty fields", () => {
    assert.match(program, /"workspace": "acme",/);
    assert.match(program, /"batchSize": 500,/);
    assert.match(program, /"eventTypes": \["track","identify"\],/);
    assert.match(program, /secretName: "sub-239a\/segment",/);
    assert.ok(!program.includes("apiBaseUrl"));
    assert.ok(!program.includes("backfillFrom"));
  });

  it("literalOf maps the service's representations", () => {
    const field = { id: "f", label: "F", required: false, readonly: false };
    assert.deepEqual(literalOf({ ...field, type: "Multi-Select", value: '["a","b"]' }), ["a", "b"]);
    assert.deepEqual(literalOf({ ...field, type: "Multi-Select", value: "a, b" }), ["a", "b"]);
    assert.equal(literalOf({ ...field, type: "Number", value: "7.5" }), 7.5);
    assert.equal(literalOf({ ...field, type: "Select", value: "" }), undefined);
  });

  it("service text with line breaks stays in comments; keys in shell commands are plain words", () => {
    const payload = 'require("child_process").execSync("touch /tmp/pwned");';
    const evil: ConnectorSnapshot[] = ["\n", "\r", "\u2028", "\u2029", "\u0085"].map((br, i) => ({
      connectorId: `e${i}e${i}e${i}e${i}e${i}e${i}e${i}e${i}`,
      name: `Evil${br}${payload}${br}//`,
      supportedType: `Source${br}${payload}`,
      configuration: {
        fields: [
          {
            id: `key; touch /tmp/pwned${br}$(id)`,
            label: `Key${br}${payload}`,
            type: "Password",
            required: true,
            readonly: false,
          },
          { id: `key;${br}$(id)`, label: "again", type: "Password", required: true, readonly: false },
          { id: `plain${br}${payload}`, label: "p", type: "Text", required: false, readonly: false, value: "v" },
        ],
      },
    }));
    evil.push({
      connectorId: "c0c0c0c0c0c0c0c0",
      name: "Config",
      supportedType: "Source",
      configuration: { fields: [] },
    });
    const out = renderProgram("239a5bbdbe543163", evil);
    const source = ts.createSourceFile("index.ts", out.program, ts.ScriptTarget.ES2022, true);
    const called: string[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) called.push(node.expression.getText(source));
      ts.forEachChild(node, visit);
    };
    visit(source);
    assert.ok(
      !called.some((c) => /execSync|child_process|^require$/.test(c)),
      `calls in the program: ${called.join(", ")}`,
    );
    assert.equal(called.filter((c) => c === "config.requireSecret").length, 10);
    const diagnostics = ts.transpileModule(out.program, { reportDiagnostics: true }).diagnostics ?? [];
    assert.deepEqual(
      diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
      [],
    );
    assert.equal(out.commands.length, 10);
    for (const command of out.commands) assert.match(command, /^pulumi config set --secret [A-Za-z0-9]+$/);
    assert.equal(new Set(out.commands).size, out.commands.length, "each secret its own key");
  });
});

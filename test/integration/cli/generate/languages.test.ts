// Generate's programs in TypeScript, Python, Go and YAML, as text. Each is
// parsed by its language's own parser (TypeScript's, Python's ast, gofmt, a YAML reader); service
// text with line breaks and code in it stays in comments and string literals; names and config
// keys are plain words, distinct in one namespace (a YAML program's); a Password value planted in
// the snapshot (the service never returns one) is in no output; YAML's `${…}` stays text.
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as ts from "typescript";
import { parse as parseYaml } from "yaml";
import { generateFiles, LANGUAGES, type ConnectorSnapshot, type GenerateOptions } from "../../../../cli/generate";
import { generateOptions } from "../../../../cli/generate/command";

const PLANTED = "planted-password-value-6c1e";
const PAYLOAD = 'x"); require("child_process").execSync("touch /tmp/pwned"); os.system("pwned"); ("';
const BREAKS = ["\n", "\r", "\u2028", "\u2029", "\u0085"];

function field(id: string, type: string, value?: string, label = id) {
  return { id, label, type, required: false, readonly: false, value };
}

const connectors: ConnectorSnapshot[] = [
  // Named as the next one's configuration would be, and listed first: both get distinct names.
  { connectorId: "5b0a1b2c3d4e5f60", name: "Segment Configuration", supportedType: "Destination" },
  {
    connectorId: "429b6c0a4f64274d",
    name: "Segment",
    supportedType: "Source",
    configuration: {
      fields: [
        field("apiKey", "Password", PLANTED, "API key"),
        // The service's text as values: Pulumi YAML would read `${…}` as an expression.
        field("workspace", "Text", "acme-${pulumi.stack}-$$"),
        field("batchSize", "Number", "500"),
        field("eventTypes", "Multi-Select", "track,identify"),
      ],
    },
  },
  ...BREAKS.map((br, i): ConnectorSnapshot => ({
    connectorId: `e${i}e${i}e${i}e${i}e${i}e${i}e${i}e${i}`,
    name: `Evil${br}${PAYLOAD}${br}//`,
    supportedType: `Source${br}${PAYLOAD}`,
    configuration: {
      fields: [
        field("secretKey", "Password", PLANTED, `Key${br}${PAYLOAD}`),
        field("plain", "Text", `v${br}${PAYLOAD}\${evil}`),
      ],
    },
  })),
];

const modes: GenerateOptions[] = LANGUAGES.flatMap((language) =>
  (["held", "config"] as const).map((passwords) => ({ language, passwords, resources: "plugin" as const })),
).map((o) => (o.language === "ts" ? o : { ...o, resources: undefined }));

/** The text outside string literals and comments: where code would run. */
function code(text: string, comment: RegExp): string {
  return text
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
    .split("\n")
    .filter((line) => !comment.test(line))
    .join("\n");
}

/** Parses the program with its language's parser; throws on a syntax error. */
function parseWith(language: string, text: string): void {
  if (language === "ts") {
    const diagnostics = ts.transpileModule(text, { reportDiagnostics: true }).diagnostics ?? [];
    assert.deepEqual(
      diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
      [],
    );
  } else if (language === "python") {
    execFileSync("python3", ["-c", "import ast, sys; ast.parse(sys.stdin.read())"], { input: text });
  } else if (language === "go") {
    execFileSync("gofmt", ["-e"], { input: text });
  } else {
    parseYaml(text);
  }
}

/** Pulumi YAML's reading of a string (pulumi-yaml's parseInterpolate): `$$` is `$`; a `${` is an expression. */
function interpolated(text: string): string {
  assert.ok(!text.replace(/\$\$/g, "").includes("${"), `an expression in ${JSON.stringify(text)}`);
  return text.replace(/\$\$/g, () => "$");
}

describe("cli: generate in TypeScript, Python, Go and YAML", () => {
  for (const options of modes) {
    const label = `${options.language}, passwords ${options.passwords}`;
    const files = generateFiles("239a5bbdbe543163", connectors, options);
    const { text } = files.program;

    it(`${label}: parses; service text only in comments and literals; no Password value anywhere`, () => {
      parseWith(options.language, text);
      const comment = options.language === "python" || options.language === "yaml" ? /^\s*#/ : /^\s*\/\//;
      const outside = code(text, comment);
      // (A name may hold the payload's letters and digits: never its punctuation.)
      for (const word of ["execSync(", "child_process", "os.system(", "/tmp/"])
        assert.ok(!outside.includes(word), word);
      for (const out of [text, files.importFile ?? "", files.commands.join("\n")]) assert.ok(!out.includes(PLANTED));
    });

    it(`${label}: names and keys are plain words, distinct; Passwords held or read from named keys`, () => {
      const imported = JSON.parse(files.importFile ?? "{}") as {
        resources: { name: string; type: string; id: string }[];
      };
      const names = imported.resources.map((r) => r.name);
      for (const name of [...names, ...files.secrets.map((s) => s.key)]) assert.match(name, /^[A-Za-z][A-Za-z0-9]*$/);
      assert.equal(new Set([...names, ...files.secrets.map((s) => s.key)]).size, names.length + files.secrets.length);
      assert.deepEqual(names.slice(0, 3), ["segmentConfiguration", "segmentSource", "segmentSourceConfiguration"]);
      assert.equal(imported.resources[2].id, "239a5bbdbe543163/429b6c0a4f64274d");
      if (options.passwords === "held") {
        assert.deepEqual(files.secrets, []);
        assert.equal(text.split(/held_by_service|heldByService|HeldByService/).length - 1, 1 + BREAKS.length);
      } else {
        assert.equal(files.secrets.length, 1 + BREAKS.length);
        assert.ok(!/held_by_service|heldByService|HeldByService/.test(text));
        for (const command of files.commands) assert.match(command, /^pulumi config set --secret [A-Za-z0-9]+$/);
      }
    });
  }

  it("every language: a Password spelled otherwise, a masked value and a profile's type are secrets, never values", () => {
    // As many consoles answer: the type spelled `password`, its value masked (the local service's consolePasswords).
    const consoleStyle: ConnectorSnapshot[] = [
      {
        connectorId: "429b6c0a4f64274d",
        name: "Segment",
        supportedType: "Source",
        configuration: {
          fields: [
            field("apiKey", "password", "********"),
            field("token", "SECRET"),
            field("signingKey", "Text", "••••1234"),
            field("credential", "Credential", "plain-looking"),
            field("workspace", "Text", "acme"),
          ],
          profile: { semantics: { secretFieldTypes: ["credential"] } },
        },
      },
    ];
    for (const options of modes) {
      const files = generateFiles("239a5bbdbe543163", consoleStyle, options);
      const label = `${options.language}, passwords ${options.passwords}`;
      for (const out of [files.program.text, files.importFile ?? "", files.commands.join("\n")])
        for (const value of ["********", "••••1234", "plain-looking"])
          assert.ok(!out.includes(value), `${label}: ${value}`);
      assert.match(files.program.text, /acme/, label);
      if (options.passwords === "held") {
        for (const id of ["apiKey", "token", "signingKey", "credential"])
          assert.match(files.program.text, new RegExp(`"${id}"`), `${label}: ${id} left to the service`);
      } else {
        assert.deepEqual(
          files.secrets.map((s) => s.fieldId),
          ["apiKey", "token", "signingKey", "credential"],
          label,
        );
      }
    }
  });

  it("yaml: a value is the service's text once Pulumi YAML reads it (`$` doubled), never an expression", () => {
    const files = generateFiles("239a5bbdbe543163", connectors, { language: "yaml" });
    const program = parseYaml(files.program.text) as {
      resources: Record<string, { properties: { secretConfig: Record<string, unknown> } }>;
    };
    const segment = program.resources.segmentSourceConfiguration.properties.secretConfig;
    assert.equal(interpolated(segment.workspace as string), "acme-${pulumi.stack}-$$");
    assert.equal(segment.batchSize, 500);
    assert.deepEqual(segment.eventTypes, ["track", "identify"]);
    const evil = Object.entries(program.resources).filter(([name]) => name.startsWith("evil"));
    assert.equal(evil.length, 2 * BREAKS.length);
  });

  it("yaml: a field id that is not a plain word (a `fn::` call, a `${…}`) is refused, naming the connector", () => {
    for (const id of ["fn::readFile", "${pulumi.stack}", "a b"]) {
      const bad: ConnectorSnapshot[] = [
        {
          connectorId: "b0b0b0b0b0b0b0b0",
          name: "Bad",
          supportedType: "Source",
          configuration: { fields: [field(id, "Text", "v")] },
        },
      ];
      assert.throws(
        () => generateFiles("239a5bbdbe543163", bad, { language: "yaml" }),
        /connector b0b0b0b0b0b0b0b0 has a field id/,
      );
      assert.doesNotThrow(() => generateFiles("239a5bbdbe543163", bad, { language: "python" }));
    }
  });

  it("ts without --resources keeps the dynamic program: adoptExisting, Passwords from config, no import file", () => {
    const files = generateFiles("239a5bbdbe543163", connectors.slice(1, 2), { language: "ts" });
    assert.equal(files.importFile, undefined);
    assert.match(files.program.text, /new ec\.AddedConnector\("segment"/);
    assert.match(files.program.text, /"apiKey": config\.requireSecret\("segmentApiKey"\)/);
  });

  it("the command refuses a wrong flag before any request, naming it", () => {
    const flags = { language: "ts", project: "adopted" };
    for (const [wrong, message] of [
      [{ language: "rust" }, /--language takes one of ts, python, go, yaml/],
      [{ language: "go", resources: "dynamic" }, /--resources takes dynamic or plugin, with --language ts only/],
      [{ language: "go" }, /--out <file> is needed with --language go/],
      [{ passwords: "clear" }, /--passwords takes held/],
      [{ language: "yaml", out: "Pulumi.yaml", project: "a b" }, /--project takes letters/],
    ] as const)
      assert.throws(() => generateOptions({ ...flags, ...wrong }), message);
    // The command line runs the same check (no service is reachable here: a request would fail otherwise).
    const main = require.resolve("../../../../cli/main");
    const run = () =>
      execFileSync(process.execPath, [main, "generate", "--account", "a", "--language", "rust"], {
        stdio: "pipe",
        env: {},
      });
    assert.throws(run, (err: { stderr: Buffer }) => /--language takes one of/.test(err.stderr.toString()));
  });
});

// The import rule of docs/DESIGN.md ("Layers"), enforced: each zone names the code (`target`) that
// may not import from `from`. Lint fails on an import that breaks it. The tests beside the code
// (`*.test.ts`) are exempt: a test may reach whatever it exercises.
const P = (...folders) => folders.map((folder) => `./provider/${folder}`);

/** The provider's subjects, from the ground up. */
const RESOURCES = P("added-connector", "connector-configuration", "sub-account");
const HOSTS = P("hosts");
const ABOVE_SCHEMA = [...P("runtime", "lookups", "doctor", "fleet", "project"), ...RESOURCES, ...HOSTS];

export const zones = [
  // The wire contract stands alone; the local service speaks only the contract.
  { target: "./contract", from: ["./provider", "./service", "./cli", "./harness", "./test"] },
  { target: "./service", from: ["./provider", "./cli", "./harness", "./test"] },
  // The package never reaches the commands, the local service, the harness or the tests.
  { target: "./provider", from: ["./cli", "./service", "./harness", "./test"] },
  // The client knows the wire only.
  { target: "./provider/client", from: ["./provider"], except: ["./client"] },
  // Settings: what the client takes, resolved once; the program-side stack config reader.
  {
    target: "./provider/settings",
    from: [...ABOVE_SCHEMA, ...P("schema", "resources", "index.ts", "text-table.ts")],
  },
  // The definitions and what is derived from them: below every behaviour and host.
  { target: "./provider/schema", from: [...ABOVE_SCHEMA, ...P("resources", "index.ts")] },
  // The process scope: no resource, lookup or host.
  { target: "./provider/runtime", from: [...RESOURCES, ...HOSTS, ...P("lookups", "doctor", "fleet", "schema")] },
  { target: "./provider/project", from: [...RESOURCES, ...HOSTS, ...P("runtime", "lookups", "doctor", "fleet")] },
  // What both resources share of a sub-account; then each resource, on its own.
  { target: "./provider/sub-account", from: [...P("added-connector", "connector-configuration"), ...HOSTS] },
  {
    target: "./provider/added-connector",
    from: [...P("connector-configuration", "lookups", "doctor", "fleet"), ...HOSTS],
  },
  {
    target: "./provider/connector-configuration",
    from: [...P("added-connector", "lookups", "doctor", "fleet"), ...HOSTS],
  },
  {
    target: "./provider/lookups",
    from: [...RESOURCES, ...P("doctor", "fleet", "hosts/plugin", "hosts/dynamic", "hosts/sdk", "hosts/in-process")],
  },
  // The policy pack reads the provider; nothing of the provider reads the pack.
  { target: [...ABOVE_SCHEMA, ...P("client", "settings", "schema", "resources", "index.ts")], from: P("policy") },
  { target: "./provider/doctor", from: [...RESOURCES, ...HOSTS, ...P("runtime", "lookups", "fleet")] },
  // Each host: its process's code alone (the plugin's process never loads a program's modules).
  {
    target: "./provider/hosts/plugin",
    from: P("hosts/dynamic", "hosts/sdk", "hosts/program", "hosts/in-process", "fleet"),
  },
  { target: "./provider/hosts/dynamic", from: P("hosts/plugin", "hosts/sdk", "hosts/in-process", "fleet", "doctor") },
  { target: "./provider/hosts/sdk", from: P("hosts/plugin", "hosts/dynamic", "hosts/in-process", "fleet", "doctor") },
  { target: "./provider/hosts/program", from: P("hosts/plugin", "hosts/dynamic", "hosts/sdk", "hosts/in-process") },
  { target: "./provider/hosts/in-process", from: P("hosts/dynamic", "hosts/sdk", "hosts/program", "fleet", "doctor") },
  // The commands reach the provider through its declared faces only: the client, the settings,
  // the project reader, doctor, the fleet program, and the in-process host for the fast drift check.
  { target: "./cli", from: ["./service", "./harness", "./test", ...RESOURCES, ...P("runtime", "lookups")] },
  { target: "./cli", from: "./provider/hosts", except: ["./in-process"] },
  { target: "./cli", from: "./provider/schema", except: ["./plugin-release.ts", "./secret-fields.ts"] },
];

// Asks a built plugin for its package schema as the engine does: runs its executable
// (dist/plugin/pulumi-resource-embedded by default), reads the port it prints, and calls the
// ResourceProvider's GetSchema over gRPC. What `pulumi package get-schema` and every SDK
// generator see, byte for byte.
// Usage: node scripts/plugin-schema.js [--plugin <executable>] [--out <file>]   (default: stdout)
const { spawn } = require("child_process");
const fs = require("fs");
const path = require("path");
const { scriptArgs } = require("./args");
const grpc = require("@grpc/grpc-js");
const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb");
const { GetSchemaRequest } = require("@pulumi/pulumi/proto/provider_pb");

const root = path.resolve(__dirname, "..");
const DEFAULT_PLUGIN = path.join(root, "dist", "plugin", "pulumi-resource-embedded");

/** The schema (its JSON text) the plugin started by `executable args…` serves. */
async function pluginSchema(executable = DEFAULT_PLUGIN, args = []) {
  if (!fs.existsSync(executable)) throw new Error(`no plugin at ${executable}: run \`npm run build\` first`);
  const child = spawn(executable, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  try {
    const port = await new Promise((resolve, reject) => {
      let stdout = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
        const line = /^(\d+)\n/.exec(stdout);
        if (line) resolve(Number(line[1]));
      });
      child.on("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port: ${stderr}`)));
      child.on("error", reject);
    });
    const client = new ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    try {
      return await new Promise((resolve, reject) =>
        client.getSchema(new GetSchemaRequest(), (error, response) =>
          error ? reject(error) : resolve(response.getSchema()),
        ),
      );
    } finally {
      client.close();
    }
  } finally {
    child.kill("SIGTERM");
  }
}

module.exports = { pluginSchema, DEFAULT_PLUGIN };

if (require.main === module) {
  const args = scriptArgs("node scripts/plugin-schema.js [--plugin <executable>] [--out <file>]", {
    plugin: { type: "string" },
    out: { type: "string" },
  });
  pluginSchema(args.plugin ? path.resolve(args.plugin) : undefined).then(
    (schema) => {
      const out = args.out;
      if (out) fs.writeFileSync(out, schema);
      else process.stdout.write(schema);
    },
    (error) => {
      console.error(`plugin-schema: ${error.message}`);
      process.exit(1);
    },
  );
}

// The entry of the plugin `embeddedfloor` (pulumi-resource-embeddedfloor runs it with node),
// as provider/hosts/plugin/main.ts is the plugin `embedded`'s: serve, and tell the engine the port.
import { PLUGIN_VERSION } from "../../provider/schema/plugin-release";
import { serveFloor } from "./server";

async function main(): Promise<void> {
  const { port, server } = await serveFloor(PLUGIN_VERSION);
  process.stdout.write(`${port}\n`);
  const stop = (): void => {
    server.forceShutdown();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-embeddedfloor: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

// The entry of the plugin `embedded` (pulumi-resource-embedded runs it with node): serve, and
// tell the engine the port on stdout. The engine passes its own address as the last argument
// (after flags such as `--logtostderr`, `-v=9`, `--tracing <endpoint>`).
import { useBaselineWasmCompiler } from "../runtime/baseline-wasm";
import { serve } from "./server";
import { PLUGIN_VERSION } from "./version";

async function main(): Promise<void> {
  useBaselineWasmCompiler();
  const args = process.argv.slice(2);
  const last = args[args.length - 1];
  const engineAddress = last !== undefined && !last.startsWith("-") ? last : undefined;
  const { port, server, log } = await serve(PLUGIN_VERSION, engineAddress);
  process.stdout.write(`${port}\n`);
  const stop = (): void => {
    log.close();
    server.forceShutdown();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`pulumi-resource-embedded: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

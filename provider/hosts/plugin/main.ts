// The entry of the plugin `embedded` (pulumi-resource-embedded runs it with node): serve, and
// tell the engine the port on stdout. The engine passes its own address as the last argument
// (after flags such as `--logtostderr`, `-v=9`, `--tracing <endpoint>`). With `doctor` as its
// first argument of its own it runs the command `doctor` instead (cli/doctor/), so that a user of
// the single executable (Python, Go, YAML: no Node.js) has it: `pulumi plugin run --kind resource
// embedded -- doctor …`.
import { useBaselineWasmCompiler } from "../../runtime/baseline-wasm";
import { serve } from "./server";
import { PLUGIN_VERSION } from "../../schema/plugin-release";

/** The arguments after the engine's own flags (`pulumi plugin run` passes them first with --logflow or --tracing). */
function ownArguments(args: string[]): string[] {
  let i = 0;
  while (i < args.length && /^(--logtostderr|--logflow|-v=\d+)$/.test(args[i] as string)) i++;
  if (args[i] === "--tracing") return ownArguments(args.slice(i + 2));
  return args.slice(i);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const own = ownArguments(args);
  if (own[0] === "doctor") {
    // Loaded only here: a plugin serving the engine never runs the command's modules.
    const { doctorProgram } = await import("../../doctor/command");
    process.exitCode = await doctorProgram(own.slice(1), "pulumi-resource-embedded");
    return;
  }
  useBaselineWasmCompiler();
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

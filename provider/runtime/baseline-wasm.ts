// V8's WebAssembly compilers, for a provider process only.
import { setFlagsFromString } from "node:v8";

/**
 * For a provider process (the dynamic-provider process's first configure(), the plugin's
 * start), never for a program or a test that merely loads the provider: V8 compiles
 * WebAssembly with its baseline compiler only from then on. undici's HTTP parser is
 * WebAssembly, and its optimizing compile costs a transient ~30 MiB of resident memory (the
 * process's peak, BENCHMARKS.md) for no measurable gain on this API's small bodies. Only
 * compilations that start later are affected; nothing else in the process changes.
 */
export function useBaselineWasmCompiler(): void {
  setFlagsFromString("--liftoff-only");
}

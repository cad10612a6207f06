// The fleet's program and its secret-routing rules: `import { fleetProgram } from
// "pulumi-embedded-connectors/fleet"` (docs/fleets.md). They live here, not in a file users copy,
// so a fix to the rules reaches every fleet with the package's next version.
export {
  fleetProgram,
  type ConnectorSpec,
  type FleetProgramOptions,
  type FleetStackOutputs,
  type SecretSource,
} from "./program";
export { ALWAYS_REFUSED, clearFieldRefusal, envSourceRefusal, globToRegExp, type Customer } from "./secret-sources";

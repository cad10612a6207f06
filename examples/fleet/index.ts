// The fleet's one program: each stack's connectors, read from its own file Pulumi.<stack>.yaml,
// with customers.json beside this file (docs/fleets.md). The rules live in the package.
import { fleetProgram } from "pulumi-embedded-connectors/fleet";

export = fleetProgram();

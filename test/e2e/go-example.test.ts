// examples/go-sub-account under the real engine (sdk-example-suite.ts), under the suite's CLI
// and NEWEST_CLI (the same program build): the Go language host
// (pulumi-language-go, built by scripts/ensure-pulumi.sh) builds the program with the Go
// toolchain on PATH, against github.com/pulumi/pulumi/sdk/v3 v3.274.1 and the Go SDK
// regenerated from the built plugin's schema (regenerated-sdk.ts; the example's go.mod replaces
// the module with ../../sdk/go, and the copy's replace is pointed at the regenerated one). The
// README's Go version is go.mod's. The build cache is the machine's (GOCACHE), shared with every run; the
// first run on a machine compiles the SDK (minutes), later ones only link.
import { strict as assert } from "node:assert";
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { repoRoot } from "./harness";
import { goEnv, GO_MODULE, useRegeneratedGoSdk } from "./sdk-languages";
import { SECRET_LOOKUP_ENV } from "./sdk-example-canaries";
import { describeSdkExample } from "./sdk-example-suite";

const exampleDir = path.join(repoRoot, "examples", "go-sub-account");

describe("examples/go-sub-account: README and go.mod", () => {
  it("the README asks for the Go version of go.mod's go line, and go.mod requires the SDK by its module path", async () => {
    const goMod = await fs.readFile(path.join(exampleDir, "go.mod"), "utf8");
    const readme = await fs.readFile(path.join(exampleDir, "README.md"), "utf8");
    const goLine = /^go (\d+\.\d+(?:\.\d+)?)$/m.exec(goMod)?.[1];
    assert.ok(goLine, "go.mod has a go line");
    assert.deepEqual(
      [...readme.matchAll(/\bGo (\d+\.\d+(?:\.\d+)?)\+/g)].map((m) => m[1]),
      [goLine],
      "every `Go X+` of the README",
    );
    assert.match(goMod, new RegExp(`^\\s*${GO_MODULE.replace(/\./g, "\\.")} v\\d+\\.\\d+\\.\\d+$`, "m"));
  });
});

/** Another resource whose output is secret: a component that hands a plain value on as a secret. */
const GO_SECRET_HOLDER = `type secretHolder struct {
	pulumi.ResourceState
}

func heldSecret(ctx *pulumi.Context, name, value string) pulumi.Output {
	holder := &secretHolder{}
	if err := ctx.RegisterComponentResource("e2e:index:SecretHolder", name, holder); err != nil {
		panic(err)
	}
	held := pulumi.ToSecret(pulumi.String(value))
	if err := ctx.RegisterResourceOutputs(holder, pulumi.Map{"value": held}); err != nil {
		panic(err)
	}
	return held
}

`;

/** A lookup whose name the program makes secret, when the test asks for it. */
const GO_SECRET_LOOKUP = `		if cfg.GetBool("e2eSecretLookup") {
			secretName := pulumi.ToSecret(pulumi.String(os.Getenv("${SECRET_LOOKUP_ENV}"))).(pulumi.StringOutput)
			found := embedded.FindConnectorOutput(ctx, embedded.FindConnectorOutputArgs{
				Name: secretName, SupportedType: pulumi.String("Source"),
			})
			ctx.Export("secretLookup", found.ConnectorId())
		}
`;

describeSdkExample({
  language: "Go",
  example: "go-sub-account",
  programFile: "main.go",
  // Go literals: a JSON string is a Go string literal; a Number canary is a pulumi.Float64.
  canaryEdits: (c) => [
    ['pulumi.String("AKIAGOEXAMPLE")', `pulumi.String(${JSON.stringify(c.text)})`],
    ['pulumi.String("eu-west-1")', `pulumi.String(${JSON.stringify(c.select)})`],
    [
      'pulumi.ToStringArray([]string{"csv", "parquet"})',
      `pulumi.ToStringArray([]string{${c.multiSelect.map((v) => JSON.stringify(v)).join(", ")}})`,
    ],
    ["pulumi.Int(512),", `pulumi.Float64(${c.number}), "startDate": pulumi.String(${JSON.stringify(c.date)}),`],
    [
      'pulumi.ToStringArray([]string{"track", "identify"})',
      `pulumi.ToStringArray([]string{${c.partnerMultiSelect.map((v) => JSON.stringify(v)).join(", ")}})`,
    ],
    ["pulumi.Int(500)", `pulumi.Float64(${c.partnerNumber})`],
    // A Text the program makes secret; a Date that is another resource's secret
    // output (a component); a lookup's name made secret (sdk-example-canaries.ts).
    [
      '"workspace":  pulumi.String("partner"),',
      `"workspace": pulumi.ToSecret(pulumi.String(${JSON.stringify(c.partnerSecretText)})),\n` +
        `\t\t\t\t"backfillFrom": heldSecret(ctx, "heldBackfillFrom", ${JSON.stringify(c.partnerHeldDate)}),`,
    ],
    ['\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n', '\t"os"\n\n\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"\n'],
    ["func main() {\n", `${GO_SECRET_HOLDER}func main() {\n`],
    [
      '\t\tctx.Export("partnerConfigured", partnerConfiguration.Configured)\n',
      '\t\tctx.Export("partnerConfigured", partnerConfiguration.Configured)\n' + GO_SECRET_LOOKUP,
    ],
  ],
  installStep: /^go get github\.com\/embedded-connectors\/pulumi-embedded-connectors\/sdk\/go@v\d+\.\d+\.\d+$/m,
  prepare: () => goEnv(),
  adapt: useRegeneratedGoSdk,
});

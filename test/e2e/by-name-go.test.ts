// A Go user gets the SDK by its module path, github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go,
// from the tag scripts/publish/go.sh pushes (as the release workflow does to GitHub) to a bare
// repository standing in for GitHub (`npm run registries` does both): git's url.<bare
// repository>.insteadOf and GOPRIVATE (so that Go asks the repository and not the module proxy)
// from that command's env, git's user and system config otherwise empty, and a module cache
// of the Go users' own (by-name-users.ts), kept per machine (the build cache then serves the engine's builds) but
// emptied of this module once per process (a copy cached from another run would hide a missing tag). The other
// modules (github.com/pulumi/pulumi/sdk/v3 …) come from the machine's module cache, then the
// module proxy. PATH holds the engine's programs, go and git: no node. The same program as the
// other languages' (docs/installation-configuration.md's Go recipe has no ConnectorConfiguration
// and is run by go-recipe.test.ts). By-name-suite.ts runs the rest.
import { execFile } from "node:child_process";
import * as os from "node:os";
import { promisify } from "node:util";
import { describeByName, type DocSection } from "./by-name-suite";
import type { GoPublication } from "../../harness/registries";
import { goGetCommands, goRecipePulumiYaml, goUserEnv } from "./by-name-users";

const execFileAsync = promisify(execFile);

const MAIN_GO = `// main.go
package main

import (
	"github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go/embedded"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		s3, err := embedded.FindConnector(ctx, &embedded.FindConnectorArgs{Name: "Amazon S3", SupportedType: "Source"})
		if err != nil {
			return err
		}
		source, err := embedded.NewAddedConnector(ctx, "s3Source", &embedded.AddedConnectorArgs{ConnectorId: pulumi.String(s3.ConnectorId)})
		if err != nil {
			return err
		}
		_, err = embedded.NewConnectorConfiguration(ctx, "s3SourceConfiguration", &embedded.ConnectorConfigurationArgs{
			ConnectorId: source.ConnectorId,
			SecretConfig: pulumi.Map{
				"bucket":          pulumi.String("acme-exports"),
				"accessKeyId":     pulumi.String("AKIAEXAMPLE"),
				"region":          pulumi.String("eu-west-1"),
				"secretAccessKey": cfg.RequireSecret("s3SecretAccessKey"),
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("connectorId", source.ConnectorId)
		return nil
	})
}
`;

let published: GoPublication;

describeByName({
  language: "Go",
  tools: ["go", "git"],
  async registryEnv(registries, tmp) {
    published = registries.go;
    return goUserEnv(tmp);
  },
  async afterInstall(workDir, env) {
    // The engine's `go build` at `up` then links only (a cold build cache compiles sdk/v3: minutes).
    await execFileAsync("go", ["build", "-o", os.devNull, "."], { cwd: workDir, env });
  },
  async section(): Promise<DocSection | string> {
    if ("refused" in published) {
      console.error(`      skipped: scripts/publish/go.sh refused: ${published.refused}`);
      return published.refused;
    }
    return {
      files: [
        ["Pulumi.yaml", await goRecipePulumiYaml()],
        ["main.go", MAIN_GO],
      ],
      commands: [`${goGetCommands("connectors")}go mod tidy\n`],
    };
  },
});

// A Go user gets the SDK by its module path, github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go,
// from the tag scripts/publish/go.sh pushes (as the release workflow does to GitHub) to a bare
// repository standing in for GitHub (`npm run registries` does both): git's url.<bare
// repository>.insteadOf and GOPRIVATE (so that Go asks the repository and not the module proxy)
// from that command's env, git's user and system config otherwise empty, and a module cache
// of the test's own, kept per machine (the build cache then serves the engine's builds) but
// emptied of this module at each run (a copy cached from another run would hide a missing tag). The other
// modules (github.com/pulumi/pulumi/sdk/v3 …) come from the machine's module cache, then the
// module proxy. PATH holds the engine's programs, go and git: no node. The same program as the
// other languages' (docs/installation-configuration.md's Go recipe has no ConnectorConfiguration
// and is run by go-recipe.test.ts). By-name-suite.ts runs the rest.
import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { promisify } from "node:util";
import { describeByName, type DocSection } from "./by-name-suite";
import type { GoPublication } from "../../harness/registries";
import { PULUMI_FIELD } from "./release-server";
import { repoRoot } from "./harness";

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

/** The Pulumi.yaml the doc's Go recipe writes (its `options: refresh: always` included). */
async function recipePulumiYaml(): Promise<string> {
  const doc = await fs.readFile(path.join(repoRoot, "docs", "installation-configuration.md"), "utf8");
  const heredoc = /^cat > Pulumi\.yaml <<'EOF'\n([\s\S]*?)^EOF$/m.exec(doc);
  if (!heredoc) throw new Error("docs/installation-configuration.md's Go recipe writes no Pulumi.yaml");
  return heredoc[1];
}

/** The test's module cache, beside the engine's cache, without this module. */
async function moduleCache(): Promise<string> {
  const base = process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache");
  const cache = path.join(
    process.env.PULUMI_EMBEDDED_CACHE ?? path.join(base, "pulumi-embedded-connectors"),
    "by-name-gomodcache",
  );
  for (const dir of [
    path.join(cache, "github.com", "embedded-connectors"),
    path.join(cache, "cache", "download", "github.com", "embedded-connectors"),
  ])
    await fs.rm(dir, { recursive: true, force: true });
  return cache;
}

describeByName({
  language: "Go",
  tools: ["go", "git"],
  async registryEnv(registries, tmp) {
    published = registries.go;
    const gitConfig = path.join(tmp, "gitconfig");
    await fs.writeFile(gitConfig, ""); // the registries' env adds git's settings (GIT_CONFIG_COUNT …)
    const { stdout } = await execFileAsync("go", ["env", "GOMODCACHE"]);
    const machineCache = path.join(stdout.trim(), "cache", "download");
    return {
      GIT_CONFIG_GLOBAL: gitConfig,
      GIT_CONFIG_NOSYSTEM: "1",
      GOPROXY: `file://${machineCache},https://proxy.golang.org`,
      GOMODCACHE: await moduleCache(),
      GOFLAGS: "-mod=mod -modcacherw",
      GOSUMDB: "off", // no checksum database here (as go-example.test.ts)
      GOTOOLCHAIN: "local",
      CGO_ENABLED: "0",
    };
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
        ["Pulumi.yaml", await recipePulumiYaml()],
        ["main.go", MAIN_GO],
      ],
      commands: [
        `go mod init connectors\ngo get github.com/embedded-connectors/pulumi-embedded-connectors/sdk/go@v${PULUMI_FIELD.version}\ngo mod tidy\n`,
      ],
    };
  },
});

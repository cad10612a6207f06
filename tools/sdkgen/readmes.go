package main

import "fmt"

// The READMEs of the generated SDKs (the generators write none at their roots).

const pythonReadme = `# pulumi_embedded

The Python SDK of the Pulumi plugin ` + "`embedded`" + ` (pulumi-embedded-connectors), generated from the
plugin's schema by ` + "`npm run sdk`" + `: do not edit.

    pip install ./sdk/python     # from a checkout of pulumi-embedded-connectors

The program also needs the plugin in Pulumi's plugin cache
(` + "`npx pulumi-embedded-connectors plugin install`" + `). See examples/python-sub-account.
`

func goReadme(modulePath, pkg string) string {
	return fmt.Sprintf(`# %[1]s

The Go SDK of the Pulumi plugin `+"`embedded`"+` (pulumi-embedded-connectors), generated from the
plugin's schema by `+"`npm run sdk`"+`: do not edit.

The module is not served by a module proxy: require it and replace it with a directory
holding this one (a checkout of pulumi-embedded-connectors):

    require %[1]s v0.0.0
    replace %[1]s => ../pulumi-embedded-connectors/sdk/go

and import `+"`%[1]s/%[2]s`"+`. The program also needs the plugin in Pulumi's plugin cache
(`+"`npx pulumi-embedded-connectors plugin install`"+`). See examples/go-sub-account.
`, modulePath, pkg)
}

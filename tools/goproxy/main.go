// Command goproxy writes one version of a Go module into a directory in the module proxy layout
// (https://go.dev/ref/mod#goproxy-protocol), so that `GOPROXY=file://<dir>` serves it as the
// module proxy will once the version is tagged (`sdk/go/v<version>` for the module in sdk/go):
//
//	go run . --module-dir <dir holding go.mod> --version v0.1.0 --out <proxy dir>
//
// writes <out>/<module path>/@v/{list,<version>.info,<version>.mod,<version>.zip}. The zip is
// made by golang.org/x/mod/zip, the go command's own rules (no nested modules, no vendor/).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	moduleDir := flag.String("module-dir", "", "the directory holding the module's go.mod")
	version := flag.String("version", "", "the version to serve, e.g. v0.1.0")
	out := flag.String("out", "", "the proxy directory (GOPROXY=file://<out>)")
	flag.Parse()
	if *moduleDir == "" || *version == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: goproxy --module-dir <dir> --version <vX.Y.Z> --out <dir>")
		os.Exit(2)
	}
	if err := run(*moduleDir, *version, *out); err != nil {
		fmt.Fprintf(os.Stderr, "goproxy: %v\n", err)
		os.Exit(1)
	}
}

func run(moduleDir, version, out string) error {
	goMod, err := os.ReadFile(filepath.Join(moduleDir, "go.mod"))
	if err != nil {
		return err
	}
	modulePath := modfile.ModulePath(goMod)
	if modulePath == "" {
		return fmt.Errorf("%s/go.mod names no module", moduleDir)
	}
	escaped, err := module.EscapePath(modulePath)
	if err != nil {
		return err
	}
	dir := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		return err
	}
	err = modzip.CreateFromDir(zipFile, module.Version{Path: modulePath, Version: version}, moduleDir)
	if closeErr := zipFile.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return fmt.Errorf("zipping %s: %w", moduleDir, err)
	}
	info, err := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	if err != nil {
		return err
	}
	files := map[string][]byte{version + ".mod": goMod, version + ".info": info, "list": []byte(version + "\n")}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	fmt.Println(out)
	return nil
}

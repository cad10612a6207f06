// Command sdkgen writes the Python and Go SDKs of the plugin `embedded` from its package schema,
// with Pulumi's own code generators (pkg/v3/codegen/python and pkg/v3/codegen/go), as they are:
//
//	go run . --schema <schema.json> --out <dir>
//
// writes what the generators return, unchanged, into <dir>/python and <dir>/go. Every name
// (the Python package, the Go module and import path, versions) is the schema's own `language`
// section, so `pulumi package gen-sdk` and `pulumi package add` with current language hosts
// write the same SDKs. The files the generators do not write (sdk/go/go.mod, the READMEs) are
// kept by hand; scripts/generate-sdks.js runs this (npm run sdk) and says which.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool names the generator in the headers of the generated files.
const tool = "pulumi-embedded-connectors sdkgen (npm run sdk)"

func main() {
	schemaPath := flag.String("schema", "", "the package schema (JSON) to generate from")
	out := flag.String("out", "", "the directory to write python/ and go/ into")
	flag.Parse()
	if *schemaPath == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: sdkgen --schema <schema.json> --out <dir>")
		os.Exit(2)
	}
	if err := run(*schemaPath, *out); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string) error {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s is not a package schema: %w", schemaPath, err)
	}
	python, err := generate(spec, func(pkg *schema.Package) (map[string][]byte, error) {
		return pygen.GeneratePackage(tool, pkg, nil, noReferences{})
	})
	if err != nil {
		return fmt.Errorf("python: %w", err)
	}
	golang, err := generate(spec, func(pkg *schema.Package) (map[string][]byte, error) {
		return gogen.GeneratePackage(tool, pkg, nil)
	})
	if err != nil {
		return fmt.Errorf("go: %w", err)
	}
	if err := writeTree(filepath.Join(out, "python"), python); err != nil {
		return err
	}
	return writeTree(filepath.Join(out, "go"), golang)
}

// generate binds a fresh copy of the spec (the generators record their language info on the
// package they are given) and runs one generator on it.
func generate(spec schema.PackageSpec, gen func(*schema.Package) (map[string][]byte, error)) (map[string][]byte, error) {
	pkg, diags, err := schema.BindSpec(spec, noReferences{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return gen(pkg)
}

// writeTree writes the given files under dir (the caller clears what a previous run wrote).
func writeTree(dir string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noReferences is the loader for a schema that references no other package: the generators
// ask it only for the packages a schema depends on, and this one depends on none.
type noReferences struct{}

var errNoReferences = errors.New("the schema of embedded references no other package")

func (noReferences) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errNoReferences
}

func (noReferences) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoReferences
}

func (noReferences) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errNoReferences
}

func (noReferences) LoadPackageReferenceV2(context.Context, *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, errNoReferences
}

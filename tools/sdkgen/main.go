// Command sdkgen writes the Python and Go SDKs of the `wos` Pulumi package from its schema, with the code
// generators of github.com/pulumi/pulumi/pkg/v3/codegen at the CLI's version, as Pulumi's own providers do in
// their `pulumi-gen-*` programs. (`pulumi package gen-sdk` of CLI 3.248 asks the language hosts to generate,
// and the hosts buildable here predate that.) npm run sdks runs it through tools/sdkgen/run.sh.
//
//	sdkgen -schema schema.json -python sdks/python -go sdks/go
//
// Each output directory is emptied and written whole: its files are exactly what the generators return for the
// schema, plus the few package files below that the generators leave to a provider's build.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"

	"github.com/blang/semver"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
)

// tool names the generator in the "do not edit" header of every generated file.
const tool = "pulumi-wos tools/sdkgen"

func main() {
	schemaPath := flag.String("schema", "", "the package schema (JSON)")
	pythonDir := flag.String("python", "", "directory for the Python SDK (emptied first)")
	goDir := flag.String("go", "", "directory for the Go SDK, the module root (emptied first)")
	flag.Parse()
	if *schemaPath == "" || (*pythonDir == "" && *goDir == "") {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*schemaPath, *pythonDir, *goDir); err != nil {
		fmt.Fprintf(os.Stderr, "sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, pythonDir, goDir string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	if spec.Version == "" {
		// The SDKs name the plugin version they need (pulumi-plugin.json, the Python package's version).
		return fmt.Errorf("%s: the schema has no version", schemaPath)
	}
	if err := languageDefaults(&spec); err != nil {
		return err
	}
	// BindSpec also checks the schema against Pulumi's metaschema, so that a malformed schema fails here and not
	// in a user's program.
	pkg, diags, err := schema.BindSpec(spec, noOtherPackages{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("%s: %s", schemaPath, diags.Error())
	}

	if pythonDir != "" {
		files, err := pygen.GeneratePackage(tool, pkg, nil, noOtherPackages{})
		if err != nil {
			return fmt.Errorf("python: %w", err)
		}
		if err := pythonPackageFiles(pkg, files); err != nil {
			return err
		}
		if err := writeTree(pythonDir, files); err != nil {
			return err
		}
	}
	if goDir != "" {
		files, err := gogen.GeneratePackage(tool, pkg, nil)
		if err != nil {
			return fmt.Errorf("go: %w", err)
		}
		if err := goModule(pkg, files); err != nil {
			return err
		}
		if err := writeTree(goDir, files); err != nil {
			return err
		}
	}
	return nil
}

// languageDefaults sets, where the schema's language sections leave them unsaid, the generator options that make
// the SDKs carry the schema's version: `respectSchemaVersion` for Python and Go (without it the Python package is
// version 0.0.0 and neither SDK's pulumi-plugin.json names the plugin version, so the engine cannot ask for the
// plugin the SDK was made for), and a pyproject.toml instead of the legacy setup.py for Python.
func languageDefaults(spec *schema.PackageSpec) error {
	defaults := map[string]map[string]any{
		"python": {"respectSchemaVersion": true, "pyproject": map[string]any{"enabled": true}},
		"go":     {"respectSchemaVersion": true},
	}
	if spec.Language == nil {
		spec.Language = map[string]schema.RawMessage{}
	}
	for language, options := range defaults {
		section := map[string]any{}
		if raw, ok := spec.Language[language]; ok {
			if err := json.Unmarshal(raw, &section); err != nil {
				return fmt.Errorf("language.%s: %w", language, err)
			}
		}
		for key, value := range options {
			if _, said := section[key]; !said {
				section[key] = value
			}
		}
		raw, err := json.Marshal(section)
		if err != nil {
			return err
		}
		spec.Language[language] = raw
	}
	return nil
}

// pythonPackageFiles adds what `pip install` of the package directory needs beside the generated code: the
// package metadata (setup.py or pyproject.toml) names README.md at the package root, which a provider's build
// copies there; here it is the README the generator wrote into the Python package from the schema's description.
func pythonPackageFiles(pkg *schema.Package, files map[string][]byte) error {
	info, _ := pkg.Language["python"].(pygen.PackageInfo)
	name := info.PackageName
	if name == "" {
		name = pygen.PyPack(pkg.Namespace, pkg.Name)
	}
	readme, ok := files[filepath.Join(name, "README.md")]
	if !ok {
		return fmt.Errorf("python: the generator wrote no %s/README.md", name)
	}
	if _, exists := files["README.md"]; !exists {
		files["README.md"] = readme
	}
	return nil
}

// goModule adds go.mod: the module is the parent of the schema's Go importBasePath, and it requires the Pulumi Go
// SDK at the version this generator is built with (tools/sdkgen/go.mod), the one the generated code was written
// for. (The generator's own go.mod, written only for "supportPack" schemas, requires an old SDK.) go.sum is
// written by `go mod tidy` in tools/sdkgen/run.sh.
func goModule(pkg *schema.Package, files map[string][]byte) error {
	info, _ := pkg.Language["go"].(gogen.GoPackageInfo)
	if info.ImportBasePath == "" {
		return fmt.Errorf("go: the schema's language.go has no importBasePath")
	}
	sdkVersion, err := pulumiSDKVersion()
	if err != nil {
		return err
	}
	var mod modfile.File
	if err := mod.AddModuleStmt(filepath.Dir(info.ImportBasePath)); err != nil {
		return err
	}
	if err := mod.AddGoStmt("1.25"); err != nil {
		return err
	}
	if err := mod.AddRequire("github.com/pulumi/pulumi/sdk/v3", sdkVersion); err != nil {
		return err
	}
	text, err := mod.Format()
	if err != nil {
		return err
	}
	files["go.mod"] = text
	return nil
}

// pulumiSDKVersion is the version of github.com/pulumi/pulumi/sdk/v3 this binary was built with.
func pulumiSDKVersion() (string, error) {
	build, ok := debug.ReadBuildInfo()
	if !ok {
		return "", fmt.Errorf("go: this binary carries no build information")
	}
	for _, dep := range build.Deps {
		if dep.Path == "github.com/pulumi/pulumi/sdk/v3" {
			if dep.Replace != nil {
				return dep.Replace.Version, nil
			}
			return dep.Version, nil
		}
	}
	return "", fmt.Errorf("go: this binary was built without github.com/pulumi/pulumi/sdk/v3")
}

// writeTree empties dir and writes files into it, in a stable order.
func writeTree(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noOtherPackages is the schema loader for a package that references no other: the binder and the Python
// generator insist on one, and it fails on any reference to another package (which would need that package's
// plugin to be installed to generate at all).
type noOtherPackages struct{}

func (noOtherPackages) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, otherPackage(name)
}

func (noOtherPackages) LoadPackageV2(_ context.Context, descriptor *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, otherPackage(descriptor.Name)
}

func (noOtherPackages) LoadPackageReference(name string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, otherPackage(name)
}

func (noOtherPackages) LoadPackageReferenceV2(
	_ context.Context, descriptor *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, otherPackage(descriptor.Name)
}

func otherPackage(name string) error {
	return fmt.Errorf("the schema references the package %q; sdkgen loads no other package", name)
}

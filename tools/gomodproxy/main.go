// Command gomodproxy writes one version of a Go module in the layout of a Go module proxy, so that
// `GOPROXY=file://<out>` (or any static file server over <out>) serves it to `go get`: the release's Go SDK.
//
//	gomodproxy -dir sdks/go -version v0.1.0 -time 2026-12-02T00:00:00Z -out dist/release/v0.1.0/goproxy
//
// It writes <out>/<escaped module path>/@v/ with list, <version>.info, <version>.mod and <version>.zip, the zip
// made by golang.org/x/mod/zip (the go command's own rules: file names, sizes, no vendor or nested modules).
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
	dir := flag.String("dir", "", "the module's root (holds go.mod)")
	version := flag.String("version", "", "the version to write, e.g. v0.1.0")
	at := flag.String("time", "", "the version's time, RFC 3339 (its commit's, for a release made again to match)")
	out := flag.String("out", "", "the proxy's root")
	flag.Parse()
	if *dir == "" || *version == "" || *at == "" || *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if err := write(*dir, *version, *at, *out); err != nil {
		fmt.Fprintf(os.Stderr, "gomodproxy: %v\n", err)
		os.Exit(1)
	}
}

func write(dir, version, at, out string) error {
	when, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return fmt.Errorf("-time: %w", err)
	}
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(goMod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	mod := module.Version{Path: path, Version: version}
	if err := module.Check(mod.Path, mod.Version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	escapedVersion, err := module.EscapeVersion(version)
	if err != nil {
		return err
	}
	versions := filepath.Join(out, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(versions, 0o755); err != nil {
		return err
	}
	zipFile, err := os.Create(filepath.Join(versions, escapedVersion+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zipFile, mod, dir); err != nil {
		zipFile.Close()
		return err
	}
	if err := zipFile.Close(); err != nil {
		return err
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, when.UTC()})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(versions, escapedVersion+".info"), info, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(versions, escapedVersion+".mod"), goMod, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(versions, "list"), []byte(version+"\n"), 0o644)
}

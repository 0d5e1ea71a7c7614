package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodebaseMapNamesEveryPackage: docs/codebase.md names every package of
// the module by its path, so a package added, moved or split without its
// place on the map fails here rather than leaving the map quietly wrong.
func TestCodebaseMapNamesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile("docs/codebase.md")
	if err != nil {
		t.Fatal(err)
	}
	dirs := map[string]bool{}
	err = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			dirs[filepath.ToSlash(filepath.Dir(p))] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 20 {
		t.Fatalf("found %d packages: the walk is wrong", len(dirs))
	}
	for dir := range dirs {
		if dir == "." {
			continue
		}
		if !strings.Contains(string(doc), dir) {
			t.Errorf("docs/codebase.md does not name package %s", dir)
		}
	}
}

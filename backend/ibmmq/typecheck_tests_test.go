package ibmmq

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The ibmmq-tagged test files (the conformance suite's TestIBMMQ, above
// all) are type-checked too: `go list -deps -test` gives each package's
// test variant with its _test.go files, and the same checker runs over
// them. A wrong call in backend/conformance/ibmmq_test.go fails
// TestTypeCheckTaggedTestFiles.

var (
	testCheckOnce   sync.Once
	testCheckResult *checked
	testCheckErr    error
	testCheckDirs   []string
)

func typeCheckTests(t *testing.T) *checked {
	t.Helper()
	base := typeCheckBackend(t) // its dependencies are reused
	testCheckOnce.Do(func() {
		testCheckDirs, testCheckErr = taggedTestDirs("../..")
		if testCheckErr == nil {
			testCheckResult, testCheckErr = runTypeCheck(".", base, append([]string{"-test"}, testCheckDirs...)...)
		}
	})
	if testCheckErr != nil {
		t.Fatalf("type-check of the ibmmq-tagged test files could not run: %v", testCheckErr)
	}
	return testCheckResult
}

// taggedTestDirs lists, relative to this package, the module's package
// directories with a _test.go file built only with the ibmmq tag, and
// this package.
func taggedTestDirs(root string) ([]string, error) {
	seen := map[string]bool{".": true}
	dirs := []string{"."}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") || !taggedIBMMQ(path) {
			return nil
		}
		rel, err := filepath.Rel(".", filepath.Dir(path))
		if err != nil {
			return err
		}
		if !seen[rel] {
			seen[rel] = true
			dirs = append(dirs, rel)
		}
		return nil
	})
	return dirs, err
}

// taggedIBMMQ reports a file whose build constraint needs the ibmmq tag.
func taggedIBMMQ(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; i < 20 && sc.Scan(); i++ {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "//go:build ") {
			return strings.Contains(line, "ibmmq") && !strings.Contains(line, "!ibmmq")
		}
		if strings.HasPrefix(line, "package ") {
			return false
		}
	}
	return false
}

func TestTypeCheckTaggedTestFiles(t *testing.T) {
	c := typeCheckTests(t)
	for path, errs := range c.own {
		for _, err := range errs {
			t.Errorf("%s: %v", path, err)
		}
	}
	const conf = ownModule + "/backend/conformance [" + ownModule + "/backend/conformance.test]"
	pkg := c.pkgs[conf]
	if pkg == nil {
		t.Fatalf("%s was not checked (dirs %v)", conf, testCheckDirs)
	}
	// newIBMBackend lives only in the ibmmq-tagged ibmmq_test.go.
	if pkg.Scope().Lookup("newIBMBackend") == nil {
		t.Errorf("backend/conformance/ibmmq_test.go was not type-checked")
	}
	t.Logf("type-checked %d packages (test variants of %v), %d files in %s", len(c.pkgs), testCheckDirs, c.files, c.duration.Round(time.Millisecond))
}

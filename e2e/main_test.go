package e2e

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs every test from the repository's root: these tests build
// and run the program (`go build .`), read its README and docs, and walk its
// packages, all by the paths a user types from a clone.
func TestMain(m *testing.M) {
	if err := os.Chdir(".."); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(2)
	}
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

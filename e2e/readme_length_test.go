package e2e

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeIsShort: the README is what a newcomer reads first (what it is,
// the two commands, the screen, the keys, a first connection, where to
// read more); reference goes to docs/ pages it links to.
func TestReadmeIsShort(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n >= 600 {
		t.Errorf("README.md is %d lines, want under 600: move reference to a docs/ page and link it", n)
	}
}

package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The build writes bin/poisonwatch (make build): a README command line that
// runs ./poisonwatch fails when pasted.
func TestReadmeRunsTheBuiltBinary(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`(^|[\s$(])\./poisonwatch\b`)
	for i, line := range strings.Split(string(b), "\n") {
		if bad.MatchString(line) {
			t.Errorf("README.md:%d runs ./poisonwatch, not bin/poisonwatch: %s", i+1, line)
		}
	}
}

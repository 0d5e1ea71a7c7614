package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/internal/doctext"
)

// The build writes bin/poisonwatch (make build): a command line in the
// README or a docs page that runs ./poisonwatch fails when pasted.
func TestReadmeRunsTheBuiltBinary(t *testing.T) {
	files, err := doctext.Files(".")
	if err != nil {
		t.Fatal(err)
	}
	bad := regexp.MustCompile(`(^|[\s$(])\./poisonwatch\b`)
	for _, f := range files {
		for i, line := range strings.Split(f.Text, "\n") {
			if bad.MatchString(line) {
				t.Errorf("%s:%d runs ./poisonwatch, not bin/poisonwatch: %s", f.Path, i+1, line)
			}
		}
	}
}

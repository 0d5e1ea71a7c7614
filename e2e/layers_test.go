package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// floors is the picture of docs/codebase.md as data: each package of the
// module on its floor, the ground being 1. A package imports only packages
// on lower floors; two on one floor know nothing of each other.
var floors = map[string]int{
	// The ground: the codecs (MQ's wire formats, MQSC) and leaves that
	// import nothing of ours.
	"codec/mqfmt": 1, "codec/mqsc": 1, "internal/safeload": 1, "internal/words": 1,
	"internal/doctext": 1, "internal/waitfor": 1, "internal/sshkey": 1,
	// The journal: what was done, as every view tells it.
	"incident/journal": 1,
	// The port, and leaves over a format.
	"mqwatch": 2, "internal/bodyedit": 2, "internal/confine": 2, "themes": 2,
	// PCF, the command server's conversation in the port's types; the
	// port's conformance suite.
	"mqwatch/pcf": 3, "backend/conformance": 3,
	// A test's queue manager that makes its messages as they are browsed.
	"backend/genqm": 3,
	// The backends; the poison engine (R1-R9).
	"backend/embedded": 4, "backend/ibmmq": 4, "actions": 4,
	// The operator's operations; the demo; the doctor (it checks what the
	// engine's fixes need); a test's queue manager.
	"actions/ops": 5, "demo": 5, "doctor": 5, "backend/embedded/embeddedtest": 5,
	"actions/dlqrules": 6,
	"model":            7,
	// What shows the state: the screens, the metrics, the fleet read back
	// from Prometheus; the incident's memory.
	"ui": 8, "exporter": 8, "promfleet": 8, "incident/alertstore": 8, "incident/record": 8,
	"warroom": 9, "incident/report": 9,
	"cli": 10,
	"":    11, // package main
	"e2e": 12, // the program run as a user runs it; no code of its own
}

const module = "github.com/poisonwatch/poisonwatch"

// TestEveryImportRunsDown: each package is on its floor (floors above) and
// imports only packages below it, so nothing imports upwards, and a package
// added without a floor fails here.
func TestEveryImportRunsDown(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := rel(f[0])
		seen[pkg] = true
		own, ok := floors[pkg]
		if !ok {
			t.Errorf("%s has no floor: give it one in layers_test.go and a place in docs/codebase.md", f[0])
			continue
		}
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			if to, ok := floors[rel(imp)]; ok && to >= own {
				t.Errorf("%s (floor %d) imports %s (floor %d): an import runs up or sideways", f[0], own, imp, to)
			}
		}
	}
	for pkg := range floors {
		if !seen[pkg] {
			t.Errorf("floors names %q, which is not a package any more", pkg)
		}
	}
	if n := len(seen); n < 20 || !seen["ui"] || !seen["model"] {
		t.Fatalf("go list found %d packages: the listing is wrong", n)
	}
}

// rel is a package's path inside the module ("" for the module's root).
func rel(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
}

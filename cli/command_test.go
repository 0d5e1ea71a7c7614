package cli

import (
	"strings"
	"testing"
)

// Every command's flags go through command.exec: --help prints its usage
// and exits 0, a flag it does not have is refused with exit 2, and neither
// runs the command. The dashboard (no command) is held to the same.
func TestEveryCommandHelpAndWrongFlag(t *testing.T) {
	names := []string{""}
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if len(names) < 18 {
		t.Fatalf("only %d commands: %v", len(names), names)
	}
	for _, name := range names {
		args := func(flag string) []string {
			if name == "" {
				return []string{flag}
			}
			return []string{name, flag}
		}
		t.Run(caseName(name), func(t *testing.T) {
			out, errOut, code := runCLI(args("--help")...)
			if code != ExitDone || out+errOut == "" {
				t.Errorf("--help: exit %d, output %q", code, out+errOut)
			}
			_, errOut, code = runCLI(args("--no-such-flag")...)
			if code != ExitUsage || !strings.Contains(errOut, "no-such-flag") {
				t.Errorf("--no-such-flag: exit %d, stderr %q", code, errOut)
			}
		})
	}
}

func caseName(name string) string {
	if name == "" {
		return "dashboard"
	}
	return name
}

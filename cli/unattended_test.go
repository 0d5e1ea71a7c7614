package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestR8fThresholdPerQueueManager: --unattended-after sets R8f's threshold
// for every queue manager, a --qmgrs entry's unattended_after its own;
// "off" turns it off, and a bad value is an error naming where it stands.
func TestR8fThresholdPerQueueManager(t *testing.T) {
	dir := t.TempDir()
	file := func(body string) string {
		p := filepath.Join(dir, fmt.Sprint(len(body))+".toml")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	qms := []qmgrConn{{name: "QM1"}, {name: "QM2"}}
	const day = 24 * time.Hour
	for _, tc := range []struct {
		name  string
		args  []string
		want  string // the thresholds, or the error
		qmgrs string // the --qmgrs file's body
	}{
		{"R8f_default_is_the_models_day", nil, "map[QM1:0s QM2:0s]", ""},
		{"R8f_flag_for_every_queue_manager", []string{"--unattended-after", "3d"}, fmt.Sprint(map[string]time.Duration{"QM1": 3 * day, "QM2": 3 * day}), ""},
		{"R8f_off", []string{"--unattended-after", "off"}, "map[QM1:-1ns QM2:-1ns]", ""},
		{"R8f_entry_sets_its_own", []string{"--unattended-after", "36h"}, "map[QM1:36h0m0s QM2:4h0m0s]",
			"[[qmgr]]\nname = \"QM1\"\n[[qmgr]]\nname = \"QM2\"\nunattended_after = \"4h\"\n"},
		{"R8f_bad_entry_names_it", nil, `QM2: unattended_after "soon": want a duration such as 12h, 36h or 3d, or off`,
			"[[qmgr]]\nname = \"QM2\"\nunattended_after = \"soon\"\n"},
		{"R8f_bad_flag", []string{"--unattended-after", "-2h"}, `invalid value "-2h" for flag -unattended-after`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o tuiOpts
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			o.register(fs)
			args := tc.args
			if tc.qmgrs != "" {
				args = append(args, "--qmgrs", file(tc.qmgrs))
			}
			err := fs.Parse(args)
			var got map[string]time.Duration
			if err == nil {
				got, err = unattendedAfter(o, qms)
			}
			out := fmt.Sprint(got)
			if err != nil {
				out = err.Error()
			}
			if !strings.Contains(out, tc.want) {
				t.Fatalf("got %s, want %s", out, tc.want)
			}
		})
	}
}

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestActionUsageErrorsBeforeAnythingRuns: out-of-range numbers and names
// IBM MQ cannot have exit 2 with a message, before the queue manager is
// built: the --load file does not exist, and would fail the run (exit 3)
// had anything run.
func TestActionUsageErrorsBeforeAnythingRuns(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"batch_negative", []string{"--batch", "-5"}, "--batch -5"},
		{"batch_zero", []string{"--batch", "0"}, "--batch 0"},
		{"workers_huge", []string{"--workers", "100000"}, "--workers 100000"},
		{"rate_negative", []string{"--rate", "-1"}, "--rate -1"},
		{"rate_NaN", []string{"--rate", "NaN"}, "--rate NaN"},
		{"rate_Inf", []string{"--rate", "+Inf"}, "--rate +Inf"},
		{"rate_tiny", []string{"--rate", "1e-300"}, "--rate 1e-300"},
		{"limit_negative", []string{"--limit", "-1"}, "--limit -1"},
		{"min_backout_negative", []string{"--min-backout", "-1"}, "--min-backout -1"},
		{"sim_duration_negative", []string{"--sim-duration", "-1h"}, "--sim-duration -1h"},
		{"dest_bracket", []string{"--dest", "["}, `--dest "["`},
		{"dest_escape", []string{"--dest", "A\x1b[2J"}, `--dest "A\x1b[2J"`},
		{"queue_with_blank", []string{"--queue", "A B"}, `--queue "A B"`},
		{"to_with_bidi", []string{"--to", "A\u202eB"}, `--to "A\u202eB"`},
		{"to_qmgr_too_long", []string{"--to", "T", "--to-qmgr", strings.Repeat("Q", 49)}, "longer than 48"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"move", "--queue", "Q", "--to", "T", "--all", "--load", "no/such/file.dmp"}, tt.args...)
			out, errOut, code := runCLI(args...)
			if code != ExitUsage || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, want %d; stderr %q should mention %q (stdout %q)", code, ExitUsage, errOut, tt.want, out)
			}
			assertTerminalSafe(t, errOut)
		})
	}
}

func TestActionFlagsAccepted(t *testing.T) {
	for _, extra := range [][]string{{"--rate", "0"}, {"--rate", "0.01"}, {"--batch", "5000"}, {"--workers", "16"}, {"--dest", "ORDERS.*"}, {"--dest", "A?C"}} {
		a, err := parseActionArgs("move", append([]string{"--queue", "Q", "--to", "T", "--all"}, extra...), &strings.Builder{})
		if err != nil || a == nil {
			t.Errorf("%v: %v", extra, err)
		}
	}
}

// TestActionMQSCNotesShown: commands and attributes the embedded queue
// manager does not model are listed on stderr, as the README says.
func TestActionMQSCNotesShown(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.mqsc")
	if err := os.WriteFile(p, []byte("DEFINE QLOCAL(Q) TRIGDPTH(5)\nDEFINE CHANNEL(C) CHLTYPE(SVRCONN)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, _ := runCLI("export", "--queue", "Q", "--all", "--file", filepath.Join(t.TempDir(), "o.dmp"), "--mqsc", p)
	for _, want := range []string{"line 1: DEFINE QLOCAL(Q): TRIGDPTH not modelled", "line 2: DEFINE CHANNEL(C): not modelled"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// TestLoadRefusesPartialDump: --load, like import, refuses an amqsbcg dump
// that shows only the start of a message instead of loading it cut short.
func TestLoadRefusesPartialDump(t *testing.T) {
	dump := corpusFile(t, "dlh-blog-yespon/amqsbcg_DEADQ_QMMBFE.txt")
	mqsc := filepath.Join(t.TempDir(), "q.mqsc")
	if err := os.WriteFile(mqsc, []byte("DEFINE QLOCAL(Q)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI("export", "--queue", "Q", "--all", "--file", filepath.Join(t.TempDir(), "o.dmp"),
		"--mqsc", mqsc, "--load", dump, "--load-queue", "Q")
	if code != ExitFailed || !strings.Contains(errOut, "384 of 856") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

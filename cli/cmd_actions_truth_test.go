package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dry runs count by outcome, and the summary line and the exit code follow
// the breakdown (issue: "992 of 992 would be acted on" while 645 would fail).
func TestR10DryRunTellsTheTruth(t *testing.T) {
	dir := t.TempDir()
	mqsc := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	room := mqsc("room.mqsc", "ALTER QLOCAL(ORDERS.IN) MAXDEPTH(10)\nALTER QLOCAL(PAYMENTS.IN) PUT(DISABLED)\n")
	base := []string{"--mqsc", exMQSC, "--load", exDeadQ, "--mqsc", room}
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"partial_breakdown_exits_1", []string{"requeue", "--queue", "QM1.DEADQ", "--all", "--dry-run"}, ExitPartial, []string{
			"dry run: 10 of 37 messages would be acted on, 27 would fail; nothing changed",
			"would fail ×20: no room: ORDERS.IN has room for 10 of the 30 messages (MQRC_Q_FULL)",
			"would fail ×7: PAYMENTS.IN is put-inhibited (MQRC_PUT_INHIBITED)"}},
		{"nothing_would_be_acted_on_exits_3", []string{"requeue", "--queue", "QM1.DEADQ", "--dest", "PAY*", "--dry-run"}, ExitFailed, []string{
			"dry run: 0 of 7 messages would be acted on, 7 would fail; nothing changed"}},
		{"real_run_lists_failures_by_reason", []string{"requeue", "--queue", "QM1.DEADQ", "--dest", "PAY*"}, ExitFailed, []string{
			"failed ×7: MQPUT PAYMENTS.IN: MQRC_PUT_INHIBITED (2051)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runActionCLI(t, append(tc.args, base...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	t.Run("json_carries_the_breakdown", func(t *testing.T) {
		_, out, _ := runActionCLI(t, append([]string{"requeue", "--queue", "QM1.DEADQ", "--all", "--dry-run", "--json"}, base...)...)
		var r struct {
			ExitCode  int `json:"exit_code"`
			Breakdown struct {
				Act  int `json:"act"`
				Fail []struct {
					Outcome string `json:"outcome"`
					Reason  int32  `json:"reason"`
					Count   int    `json:"count"`
				} `json:"fail"`
			} `json:"breakdown"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if r.ExitCode != ExitPartial || r.Breakdown.Act != 10 || len(r.Breakdown.Fail) != 2 ||
			r.Breakdown.Fail[0].Count != 20 || r.Breakdown.Fail[0].Reason != 2053 || r.Breakdown.Fail[1].Reason != 2051 {
			t.Errorf("%+v", r)
		}
	})
}

// Command-line truths (issue 11 §9).
func TestR10CommandLineTruths(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no_queue_manager_to_act_on", []string{"requeue", "--queue", "QM1.DEADQ", "--all"}, ExitUsage, "no queue manager to act on"},
		{"file_directory_missing", []string{"export", "--queue", "QM1.DEADQ", "--all", "--file", filepath.Join(missing, "x.dmp"),
			"--mqsc", exMQSC}, ExitUsage, "--file: directory " + missing + " does not exist"},
		{"archive_dir_missing", []string{"discard", "--queue", "QM1.DEADQ", "--all", "--archive-dir", missing,
			"--mqsc", exMQSC}, ExitUsage, "--archive-dir: directory " + missing + " does not exist"},
		{"flag_of_another_action", []string{"discard", "--queue", "QM1.DEADQ", "--all", "--to", "PARKING.Q",
			"--mqsc", exMQSC}, ExitUsage, "--to does not apply to discard"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runActionCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d (want %d), stderr %q lacks %q\n%s", code, tc.code, errOut, tc.want, out)
			}
			if _, err := os.Stat(missing); !os.IsNotExist(err) {
				t.Errorf("%s was created", missing)
			}
		})
	}
	t.Run("help_shows_the_synopsis_and_own_flags_only", func(t *testing.T) {
		code, _, errOut := runActionCLI(t, "discard", "--help")
		if code != ExitDone || !strings.Contains(errOut, "Usage: poisonwatch discard --queue Q") ||
			strings.Contains(errOut, "--keep-msgid") || strings.Contains(errOut, "--to ") || !strings.Contains(errOut, "--archive-dir") {
			t.Errorf("exit %d\n%s", code, errOut)
		}
		_, _, errOut = runActionCLI(t, "requeue", "--help")
		if strings.Contains(errOut, "default: your identity") {
			t.Errorf("--context help names two defaults:\n%s", errOut)
		}
		// Numbers bare, words quoted, as the flag package writes them.
		for _, want := range []string{"messages per unit of work (default 100)", `(default "pass")`, "(default 8)"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("requeue --help lacks %q:\n%s", want, errOut)
			}
		}
	})
	t.Run("import_again_with_nothing_left_exits_0", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("XDG_STATE_HOME", dir)
		args := []string{"import", "--file", exDeadQ, "--to", "PARKING.Q", "--mqsc", exMQSC}
		var codes []int
		for range 2 {
			code, _, _ := runActionCLIKeepState(t, args...)
			codes = append(codes, code)
		}
		if codes[0] != ExitDone || codes[1] != ExitDone {
			t.Errorf("exit codes %v, want 0 then 0 (every message already imported is done)", codes)
		}
	})
}

// runActionCLIKeepState runs an action command in the state directory the
// test set.
func runActionCLIKeepState(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// move and requeue --create-like (R10h parking, the dashboard's ctrl+n):
// the dry run shows the DEFINE and the move to the queue as it will be; the
// run defines it through the command server (audited) and then moves; a
// target that exists is refused with nothing done.
func TestR10h_CreateLikeDefinesTheParkingQueueThenMoves(t *testing.T) {
	demo := []string{"--mqsc", exMQSC, "--load", exDeadQ}
	park := func(args ...string) []string {
		return append(append(args, "--queue", "QM1.DEADQ", "--reason", "MQRC_Q_FULL", "--create-like", "QM1.DEADQ"), demo...)
	}
	const define = "DEFINE QLOCAL(PARK.ORDERS) LIKE(QM1.DEADQ) MAXDEPTH(2000) NOTRIGGER"

	t.Run("dry_run_shows_the_define_and_the_move", func(t *testing.T) {
		code, out, errOut := runActionCLI(t, park("move", "--to", "PARK.ORDERS", "--maxdepth", "2000", "--dry-run")...)
		if code != ExitDone {
			t.Fatalf("exit %d: %s%s", code, out, errOut)
		}
		for _, want := range []string{"would define: " + define + " (MQCMD_COPY_Q, +crt", "PARK.ORDERS, empty, MAXDEPTH 2000",
			"dry run: Move 30 messages from QM1.DEADQ to PARK.ORDERS", "QM1.DEADQ 37"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("dry_run_sees_the_new_queues_maxdepth", func(t *testing.T) {
		code, out, _ := runActionCLI(t, park("move", "--to", "PARK.ORDERS", "--maxdepth", "10", "--dry-run")...)
		if code != ExitPartial || !strings.Contains(out, "PARK.ORDERS has room for 10 of the 30 messages") {
			t.Errorf("exit %d:\n%s", code, out)
		}
	})
	t.Run("run_defines_audits_and_moves", func(t *testing.T) {
		audit := filepath.Join(t.TempDir(), "audit.jsonl")
		code, out, errOut := runActionCLI(t, park("move", "--to", "PARK.ORDERS", "--maxdepth", "2000", "--audit", audit)...)
		if code != ExitDone || !strings.Contains(out, "defined: "+define) || !strings.Contains(out, "PARK.ORDERS 30, QM1.DEADQ 7") {
			t.Fatalf("exit %d:\n%s%s", code, out, errOut)
		}
		data, err := os.ReadFile(audit)
		if err != nil {
			t.Fatal(err)
		}
		first := strings.SplitN(string(data), "\n", 2)[0]
		var rec struct{ Action, Outcome, MQSC string }
		if err := json.Unmarshal([]byte(first), &rec); err != nil || rec.Action != "fix" || rec.Outcome != "applied" || rec.MQSC != define {
			t.Errorf("first audit line %s (%v): want the define, applied, before the moves", first, err)
		}
	})
	t.Run("requeue_to_a_new_queue_default_maxdepth_json", func(t *testing.T) {
		code, out, errOut := runActionCLI(t, park("requeue", "--to", "PARK.NEW", "--json")...)
		var res struct {
			Define struct {
				Plan struct{ Steps []struct{ MQSC string } }
			}
			Done int
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != ExitDone || res.Done != 30 || len(res.Define.Plan.Steps) != 1 ||
			res.Define.Plan.Steps[0].MQSC != "DEFINE QLOCAL(PARK.NEW) LIKE(QM1.DEADQ) MAXDEPTH(5000) NOTRIGGER" {
			t.Errorf("exit %d, %v: %s%s", code, err, out, errOut)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"target_exists", park("move", "--to", "PARKING.Q"), ExitFailed, "PARKING.Q already exists on QM1: nothing is defined"},
		{"requeue_needs_to", park("requeue"), ExitUsage, "--create-like defines the --to queue: give --to"},
		{"maxdepth_alone", append([]string{"move", "--queue", "QM1.DEADQ", "--all", "--to", "P", "--maxdepth", "5"}, demo...), ExitUsage, "--maxdepth goes with --create-like"},
		{"not_for_discard", park("discard"), ExitUsage, "--create-like does not apply to discard"},
		{"no_remote", park("move", "--to", "P", "--to-qmgr", "QM2"), ExitUsage, "--to-qmgr names another queue manager"},
		{"like_missing", append([]string{"move", "--queue", "QM1.DEADQ", "--all", "--to", "P", "--create-like", "NO.SUCH.Q"}, demo...), ExitFailed, "no queue NO.SUCH.Q to copy (LIKE)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runActionCLI(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tc.code, tc.want)
			}
			if strings.Contains(out, "moved") || strings.Contains(out, "defined") {
				t.Errorf("something was done:\n%s", out)
			}
		})
	}
}

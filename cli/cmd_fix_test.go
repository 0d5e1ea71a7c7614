package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// TestFixCLI runs `poisonwatch fix` on the built-in demo's QM1: the R8b fix
// of the full BOQ clears it (exit 0), the R1c fix raises the BOQ's MAXDEPTH
// first, a dry run sends nothing, read-only refuses (1), and a command line
// that names no alert is a usage error (2).
//
// Eight simulated minutes of the demo (not its ten) are enough: ORDERS.BO
// is full by then (40 of 40), the last of the alerts the cases need. Each
// case builds its own demo, so the cases run in parallel, each with its
// own audit log.
func TestFixCLI(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"R8b_fix_clears_the_full_BOQ", []string{"--alert", "R8b:ORDERS.BO"}, 0,
			[]string{"MAXDEPTH 40 → 5000   needs +chg on queue ORDERS.BO", "applied  ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "R8b ORDERS.BO cleared after"}},
		{"R1c_fix_waits_for_the_BOQ", []string{"--alert", "R1c:ORDERS.IN"}, 0,
			[]string{"first: ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "fixes R8b ORDERS.BO: full, 40 of MAXDEPTH 40", "then:  ALTER QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)",
				"R1c ORDERS.IN cleared", "now firing: R8c:ORDERS.IN"}},
		{"dry_run_sends_nothing", []string{"--alert", "R8b:ORDERS.BO", "--dry-run"}, 0, []string{"would apply ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", "dry run: every step would be applied; nothing sent"}},
		{"read_only_refuses", []string{"--alert", "R8b:ORDERS.BO", "--read-only"}, 1, []string{"not applied: read-only mode"}},
		{"list_names_every_alert", []string{"--list"}, 0, []string{"R8b:ORDERS.BO", "crit fixable", "R8c:PAYMENTS.IN", "crit advice"}},
		{"advice_is_not_applied", []string{"--alert", "R8c:PAYMENTS.IN"}, 2, nil}, // stuck poison has advice, no MQSC
		{"unknown_alert_is_usage", []string{"--alert", "R8b:NO.SUCH"}, 2, nil},
		{"no_alert_is_usage", nil, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base := []string{"--scenario", "builtin", "--sim-duration", "8m", "--qmgr", "QM1",
				"--audit", filepath.Join(dir, tt.name+".jsonl"), "--verify", "10s"}
			var out, errs bytes.Buffer
			code := Run(context.Background(), append(append([]string{"fix"}, base...), tt.args...), &out, &errs)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tt.code, out.String(), errs.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
		})
	}
}

func TestFixCLIJSON(t *testing.T) {
	var out, errs bytes.Buffer
	args := []string{"--scenario", "builtin", "--qmgr", "QM1", "--audit", filepath.Join(t.TempDir(), "a"), "--alert", "R8b:ORDERS.BO", "--json"}
	if code := Run(context.Background(), append([]string{"fix"}, args...), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var got fixOutput
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Cleared || len(got.Plan.Steps) != 1 || got.Plan.Steps[0].PCF != "MQCMD_CHANGE_Q" || got.Result == nil || !got.Result.Steps[0].Applied {
		t.Errorf("%+v", got)
	}
}

// TestR10h_FixDryRunExitCodes: a dry run exits 0 when the change gate
// predicts every step applied and 1 when it predicts one refused, naming
// the first with its reason.
func TestR10h_FixDryRunExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []ops.FixStepResult
		code  int
		want  string
	}{
		{"R10h_all_would_apply", []ops.FixStepResult{{Prediction: "would apply"}, {Skipped: true}}, 0, "dry run: every step would be applied; nothing sent"},
		{"R10h_second_refused", []ops.FixStepResult{{Prediction: "would apply"}, {Predicted: 4001, Prediction: "MQRCCF_OBJECT_ALREADY_EXISTS (4001): the queue already exists; P.Q exists"}}, 1,
			"dry run: step 2 would be refused: MQRCCF_OBJECT_ALREADY_EXISTS (4001): the queue already exists; P.Q exists; nothing sent"},
		{"R10h_uncertain_is_said", []ops.FixStepResult{{Uncertain: true, Prediction: "would apply (authority not checked: DISPLAY ENTAUTH: ...)"}}, 0, "as far as could be checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, code := dryRunOutcome(ops.FixResult{DryRun: true, Steps: tc.steps})
			if code != tc.code || !strings.Contains(got, tc.want) {
				t.Errorf("%q exit %d, want %q exit %d", got, code, tc.want, tc.code)
			}
		})
	}
}

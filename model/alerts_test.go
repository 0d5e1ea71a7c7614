package model

import (
	"testing"
	"time"
	"unicode"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestR8bOneAlertPerFindingEachWithItsOwnFix: a live finding and a lint
// finding on the same queue stay two alerts unless they are the same finding
// (rule, queue and severity agree); no alert shows another's fix.
func TestR8bOneAlertPerFindingEachWithItsOwnFix(t *testing.T) {
	full := Alert{Severity: actions.Critical, Rule: "R8b", Queue: "ORDERS.BO", Text: "queue full", Fix: "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(80)"}
	loop := Alert{Severity: actions.Critical, Rule: "R1c", Queue: "AUDIT.IN", Text: "LOOP"}
	for _, tc := range []struct {
		name      string
		live      []Alert
		lint      []Alert
		wantFixes []string
	}{
		{"R8b_maxmsgl_is_its_own_alert", []Alert{full},
			[]Alert{{Severity: actions.Warning, Rule: "R8b", Queue: "ORDERS.BO", Text: "MAXMSGL", Fix: "ALTER QLOCAL(ORDERS.BO) MAXMSGL(4194340)"}},
			[]string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(80)", "ALTER QLOCAL(ORDERS.BO) MAXMSGL(4194340)"}},
		{"R1c_same_finding_takes_the_lint_fix", []Alert{loop},
			[]Alert{{Severity: actions.Critical, Rule: "R1c", Queue: "AUDIT.IN", Text: "BOTHRESH 0", Fix: "ALTER QLOCAL(AUDIT.IN) BOTHRESH(3)"}},
			[]string{"ALTER QLOCAL(AUDIT.IN) BOTHRESH(3)"}},
		{"R8b_live_full_takes_the_checked_fix", []Alert{full},
			[]Alert{{Severity: actions.Critical, Rule: "R8b", Queue: "ORDERS.BO", Text: "BOQ full", Fix: "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)"}},
			[]string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)"}},
		{"R1c_other_severity_is_another_alert", []Alert{loop},
			[]Alert{{Severity: actions.Info, Rule: "R1c", Queue: "AUDIT.IN", Text: "BOTHRESH 0", Fix: "ALTER QLOCAL(AUDIT.IN) BOTHRESH(3)"}},
			[]string{"", "ALTER QLOCAL(AUDIT.IN) BOTHRESH(3)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mergeLint(append([]Alert(nil), tc.live...), tc.lint)
			if len(got) != len(tc.wantFixes) {
				t.Fatalf("%d alerts, want %d: %+v", len(got), len(tc.wantFixes), got)
			}
			for i, a := range got {
				if a.Fix != tc.wantFixes[i] {
					t.Errorf("alert %d (%s %s): fix %q, want %q", i, a.Rule, a.Text, a.Fix, tc.wantFixes[i])
				}
			}
		})
	}
}

// TestSpanIsTheOneDurationFormat: alerts and screens share it; a negative
// duration (a put time ahead of the clock) is no age.
func TestSpanIsTheOneDurationFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-5 * time.Second: "-", 0: "0s", 45 * time.Second: "45s", 750 * time.Second: "12m30s",
		5*time.Hour + 30*time.Minute: "5h30m", 72 * time.Hour: "3d",
	} {
		if got := Span(d); got != want {
			t.Errorf("Span(%s) = %q, want %q", d, got, want)
		}
	}
}

// TestAdviceIsNotMQSC: a fix that is prose (R10f's, stuck poison's, a
// stalled consumer's) is advice; one with an MQSC command is not, copy-only
// commands included.
func TestAdviceIsNotMQSC(t *testing.T) {
	for fix, want := range map[string]bool{
		"":                                       false,
		"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)": false,
		"DEFINE CHANNEL(X) CHLTYPE(SVRCONN)":     false, // MQSC a fix may not send: copy-only, not advice
		stuckAdvice(mqwatch.QueueInfo{Name: "PAYMENTS.IN", BackoutQName: "PAYMENTS.BO"}): true,
		"fix the cause before acting again; the run is in the audit log /tmp/a.jsonl":    true,
		"find why the consumers of ORDERS.IN stopped getting":                            true,
	} {
		if got := (Alert{Fix: fix}).Advice(); got != want {
			t.Errorf("Advice(%q) = %v, want %v", fix, got, want)
		}
	}
}

// TestRuleTextsAreSentences: what the alert detail shows of a rule starts
// as a sentence, not with a keyword of the specification ("asf, ...").
func TestRuleTextsAreSentences(t *testing.T) {
	for rule, text := range ruleText {
		if r := []rune(text)[0]; !unicode.IsUpper(r) {
			t.Errorf("%s: %q starts with %q", rule, text, r)
		}
	}
}

// TestLiveRoomFixIsTheLintsSize: a full queue's live alert proposes the
// MAXDEPTH every other fix of its room proposes (actions.RoomFix).
func TestLiveRoomFixIsTheLintsSize(t *testing.T) {
	s := New(func() time.Time { return t0 }, 2*time.Second)
	b := &snapBuilder{views: []mqwatch.QueueView{local("ORDERS.IN", 40, 40, 0, "")}}
	s.Fold(b.snap(t0))
	for _, al := range s.QMgr("QM1").Alerts {
		if al.Rule == "R8b" && al.Queue == "ORDERS.IN" {
			if al.Fix != "ALTER QLOCAL(ORDERS.IN) MAXDEPTH(5000)" {
				t.Fatalf("R8b fix %q, want MAXDEPTH(5000)", al.Fix)
			}
			return
		}
	}
	t.Fatalf("no R8b on ORDERS.IN: %s", alertRules(s.QMgr("QM1")))
}

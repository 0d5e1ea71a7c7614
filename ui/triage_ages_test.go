package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// forgotten is the incident's snapshot with a DEADQ that was left alone:
// 30 dead letters from 3 to 9 days old, 5 from the last hours, and 6
// messages without an MQDLH that ORDERS.IN's JMS consumer moved there (the
// DEADQ is its BOQNAME).
func forgotten() *mqwatch.Snapshot {
	snap := incident(1, 0)
	var sums []mqwatch.Summary
	for i := range 30 {
		s := dlqSummary(i, 2085, "INVOICE.IN")
		s.DLHPutTime = clock.Add(-72*time.Hour - time.Duration(i)*5*time.Hour)
		sums = append(sums, s)
	}
	for i := range 5 {
		s := dlqSummary(100+i, 2053, "AUDIT.IN")
		s.DLHPutTime = clock.Add(-time.Duration(i+1) * 50 * time.Minute)
		sums = append(sums, s)
	}
	for i := range 6 {
		s := dlqSummary(200+i, 0, "")
		s.HasDLH, s.DLHDestQMgr, s.DLHPutAppl, s.Format = false, "", "", "MQHRF2"
		s.HasRFH2, s.JMSDst, s.PutApplName = true, "queue:///ORDERS.IN", "OrderService"
		s.PutTime = clock.Add(-30 * time.Minute)
		sums = append(sums, s)
	}
	snap.Inventories["QM1.DEADQ"] = (*mqwatch.Inventory)(nil).Append(sums...)
	for i, v := range snap.Queues {
		switch v.Info.Name {
		case "QM1.DEADQ":
			snap.Queues[i].Status.Depth = int32(len(sums))
		case "ORDERS.IN":
			snap.Queues[i].Info.BackoutQName = "QM1.DEADQ"
		}
	}
	return snap
}

// TestR8fR8gTriageScreens: the triage of a forgotten DEADQ counts its
// messages by age band, in amber past the queue manager's day (R8f), and
// lists the messages without an MQDLH last, saying what to do about them
// (R8g), at 80x24 and 120x35.
func TestR8fR8gTriageScreens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 35}} {
		for _, tc := range []struct {
			name string
			keys []string
			want string
		}{
			{"R8f_ages", []string{"d"}, " waiting: 34 > 1 h · 30 > 1 day · 10 > 1 week · oldest 9d (R8f: over 1 day)"},
			{"R8g_no_mqdlh_last", []string{"d", "G"}, " no MQDLH: ORDERS.IN's JMS consumer moved them (R5): requeue once it takes"},
		} {
			t.Run(tc.name+"_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
				a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fakeOps{msg: sampleMessage()}})
				a.Update(snapshotMsg{snap: forgotten()})
				press(a, tc.keys...)
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				if !strings.Contains(v, tc.want[:min(len(tc.want), size.w-1)]) {
					t.Fatalf("the screen lacks %q:\n%s", tc.want, v)
				}
				golden(t, v)
			})
		}
	}
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: forgotten()})
	press(a, "d")
	tr := topIs[*triageScreen](t, a)
	if last := tr.groups[len(tr.groups)-1]; last.Key.Reason != 0 || last.Count != 6 {
		t.Fatalf("the last group is %+v, want the 6 without an MQDLH", last.Key)
	}
	if al := a.state.QMgr("QM1").Alerts; !strings.Contains(alertTexts(al), "R8f QM1.DEADQ dead letters left unattended: the oldest has waited 9d (over 1 day here)") {
		t.Fatalf("no R8f alert on the DEADQ: %s", alertTexts(al))
	}
}

func alertTexts(as []model.Alert) string {
	var out []string
	for _, a := range as {
		out = append(out, a.Rule+" "+a.Queue+" "+a.Text)
	}
	return strings.Join(out, "\n")
}

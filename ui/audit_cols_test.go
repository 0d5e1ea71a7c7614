package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"
)

// TestAuditColumnsFitWhatTheyHold: at 120 columns (and 80) the audit view
// reads an act named "snooze", a user named in full and a source queue named
// SYSTEM.DEAD.LETTER.QUEUE whole; the result keeps the rest of the line.
func TestAuditColumnsFitWhatTheyHold(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			j := journal.New()
			at := clock.Add(-time.Minute)
			run := j.Append(journal.Entry{At: at, Kind: journal.Run, Op: "requeue", User: "operator1", QMgr: "QM1", Queue: "SYSTEM.DEAD.LETTER.QUEUE",
				Target: "ORDERS.EXPRESS", Text: "requeue 22 messages from SYSTEM.DEAD.LETTER.QUEUE to ORDERS.EXPRESS", Outcome: "22 requeued",
				Status: journal.OK, Counts: journal.Counts{Requested: 22, Done: 22}})
			j.Append(journal.Entry{At: at.Add(30 * time.Second), Kind: journal.CameBack, Ref: run.Seq, QMgr: "QM1", Queue: "SYSTEM.DEAD.LETTER.QUEUE",
				Outcome: "all 22 came back within 4 s (2053: ORDERS.BO full)", Status: journal.Returned, Counts: journal.Counts{CameBack: 22}})
			j.Append(journal.Entry{At: at.Add(40 * time.Second), Kind: journal.Snooze, Op: "snooze", User: "operator1", QMgr: "QM1", Queue: "ORDERS.BO",
				Alert: "QM1\x00R8b\x00ORDERS.BO\x00crit", Text: "R8b on ORDERS.BO"})
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fakeOps{msg: sampleMessage()}, Journal: j})
			a.Update(snapshotMsg{snap: incident(1, 30)})
			pressKey(t, a, km.Audit)
			v := a.View()
			for _, want := range []string{"SYSTEM.DEAD.LETTER.QUEUE", "snooze", "requeue"} {
				if !strings.Contains(v, want) {
					t.Fatalf("the audit view cuts %q:\n%s", want, v)
				}
			}
			if size.w >= 110 && !strings.Contains(v, "operator1") {
				t.Fatalf("the audit view cuts the user:\n%s", v)
			}
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

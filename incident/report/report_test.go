package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

var t0 = time.Date(2026, 12, 1, 20, 41, 0, 0, time.UTC)

// incident records five polls of a growing DEADQ, an alert that an
// operator acknowledges and that clears after a requeue.
func incident(t *testing.T) *record.Recording {
	t.Helper()
	path := filepath.Join(t.TempDir(), "i.pwrec")
	w, err := record.Create(path, 0, record.Header{Started: t0, Interval: time.Minute, Source: "serve", QMgrs: []string{"QM1"}})
	if err != nil {
		t.Fatal(err)
	}
	var inv *mqwatch.Inventory
	for i := 0; i < 5; i++ {
		var added []mqwatch.Summary
		for j := 0; j < 10; j++ {
			s := mqwatch.Summary{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN", DLHDestQMgr: "QM1", Arrival: uint64(i*10 + j + 1),
				DLHPutTime: t0.Add(time.Duration(i) * time.Minute)}
			s.MsgId[0], s.MsgId[1] = byte(i), byte(j)
			added = append(added, s)
		}
		d := mqwatch.InventoryDelta{Added: added}
		if i == 0 {
			d = mqwatch.InventoryDelta{Resync: true}
		}
		inv = inv.Append(added...)
		w.Snapshot(&mqwatch.Snapshot{Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * time.Minute), QMgrName: "QM1", Connected: true,
			QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "DLQ"},
			Queues: []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: "DLQ", MaxDepth: 5000}, HasStatus: true, Role: mqwatch.RoleDeadQ,
				Status: mqwatch.QueueStatus{Name: "DLQ", Depth: int32(inv.Len())}}},
			Inventories: map[string]*mqwatch.Inventory{"DLQ": inv}, Deltas: map[string]mqwatch.InventoryDelta{"DLQ": d}})
	}
	ep := model.Episode{Key: "k", QMgr: "QM1", Rule: "R8d", Queue: "DLQ", Sev: actions.Warning, Text: "growing: +10/min net", Start: t0.Add(time.Minute)}
	w.Transitions([]model.Transition{{Kind: "fired", At: ep.Start, Episode: ep}})
	ep.Ack = model.Ack{By: "alice", At: t0.Add(2 * time.Minute), Note: "looking at the ORDERS consumer"}
	w.Transitions([]model.Transition{{Kind: "acked", At: ep.Ack.At, Episode: ep}})
	w.Presence(record.Presence{At: t0.Add(90 * time.Second), Members: []record.Member{{User: "alice", Role: "operator", Driving: true}, {User: "bob", Role: "viewer"}}})
	w.Entry(journal.Entry{Seq: 1, At: t0.Add(3 * time.Minute), Kind: journal.Run, User: "alice (ssh key SHA256:x)", Op: "requeue", QMgr: "QM1", Queue: "DLQ",
		Text: "Requeue 30 messages from DLQ to ORDERS.IN", Outcome: "28 requeued · 2 failed", Status: journal.Partial,
		Counts: journal.Counts{Requested: 30, Done: 28, Failed: 2}, Files: []string{"/state/audit.jsonl"}})
	ep.Cleared = t0.Add(4 * time.Minute)
	w.Transitions([]model.Transition{{Kind: "cleared", At: ep.Cleared, Episode: ep}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := record.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestReportTellsTheStory(t *testing.T) {
	rep := Build(incident(t), time.Time{}, time.Time{})
	if len(rep.Alerts) != 1 || rep.Alerts[0].Ack.By != "alice" || !rep.Alerts[0].Cleared.Equal(t0.Add(4*time.Minute)) {
		t.Fatalf("alerts %+v", rep.Alerts)
	}
	if len(rep.Remaining) != 1 || rep.Remaining[0].Count != 50 || rep.Remaining[0].Reason != "MQRC_Q_FULL (2053)" {
		t.Fatalf("remaining %+v", rep.Remaining)
	}
	var arrived float64
	for _, p := range rep.Series.Arrivals[Key{"QM1", "MQRC_Q_FULL (2053)"}] {
		arrived += p.V
	}
	if arrived != 40 {
		t.Errorf("%v arrivals charted, want 40 (the first read's 10 were already there)", arrived)
	}
	var html, md bytes.Buffer
	if err := rep.HTML(&html); err != nil {
		t.Fatal(err)
	}
	if err := rep.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{html.String(), md.String()} {
		for _, want := range []string{"acked by alice 20:43: looking at the ORDERS consumer", "20:45:00",
			"Requeue 30 messages from DLQ to ORDERS.IN", "28 requeued · 2 failed", "/state/audit.jsonl", "ORDERS.IN (QM1)",
			"operator (drove)", "Who was in the war room"} {
			if !strings.Contains(out, want) {
				t.Errorf("report lacks %q", want)
			}
		}
	}
	// A span before the ack leaves it out, and the alert still fires then.
	early := Build(incident(t), time.Time{}, t0.Add(90*time.Second))
	if len(early.Alerts) != 1 || early.Alerts[0].Ack.By != "" || !early.Alerts[0].Cleared.IsZero() || len(early.Actions) != 0 {
		t.Errorf("--to 20:42:30: %+v, actions %v", early.Alerts, early.Actions)
	}
}

// Names from the queue manager reach the page escaped.
func TestReportEscapesNames(t *testing.T) {
	rep := &Report{QMgrs: []string{"<script>x</script>"}, From: t0, To: t0.Add(time.Minute),
		Alerts: []AlertRow{{QMgr: "QM1", Queue: "<img src=x>", Text: "\x1b]0;pwned\x07", Start: t0}}}
	var b bytes.Buffer
	if err := rep.HTML(&b); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); strings.Contains(s, "<script>x") || strings.Contains(s, "<img src=x>") || strings.Contains(s, "\x1b") {
		t.Error("a name reached the page unescaped")
	}
}

package model

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// aged is a dead letter put on the DEADQ ago before t0 (a BOQ message,
// without an MQDLH, when boq).
func aged(id int, ago time.Duration, boq bool) mqwatch.Summary {
	s := dl(id, 2085, "INVOICE.IN")
	s.PutTime, s.DLHPutTime = t0.Add(-ago-time.Hour), t0.Add(-ago)
	if boq {
		s.HasDLH, s.DLHReason, s.DLHDestQ, s.DLHPutTime, s.PutTime = false, 0, "", time.Time{}, t0.Add(-ago)
	}
	return s
}

// foldAged folds one poll of queue (the DEADQ "DLQ" or a BOQ) holding msgs
// at t0, with the queue manager's threshold.
func foldAged(queue string, msgs []mqwatch.Summary, threshold time.Duration) *QMgrState {
	s := New(func() time.Time { return t0 }, 2*time.Second)
	s.QMgr("QM1").UnattendedAfter = threshold
	v := local(queue, int32(len(msgs)), 5000, 0, "")
	v.Role = mqwatch.RoleBOQ
	if queue == "DLQ" {
		v.Role = mqwatch.RoleDeadQ
	}
	b := &snapBuilder{views: []mqwatch.QueueView{v}, invs: map[string]*mqwatch.Inventory{queue: (*mqwatch.Inventory)(nil).Append(msgs...)}}
	s.Fold(b.snap(t0))
	return s.QMgr("QM1")
}

func r8f(q *QMgrState) *Alert {
	for i := range q.Alerts {
		if q.Alerts[i].Rule == "R8f" {
			return &q.Alerts[i]
		}
	}
	return nil
}

// TestR8fUnattendedDeadLetters: the oldest dead letter of the DEADQ or a
// BOQ waiting longer than the queue manager's threshold (a day unless it
// says otherwise) is a warning that says how long and counts the bands;
// one within it, or a threshold turned off, is none.
func TestR8fUnattendedDeadLetters(t *testing.T) {
	h := time.Hour
	for _, tc := range []struct {
		name      string
		queue     string
		msgs      []mqwatch.Summary
		threshold time.Duration
		want      string // the alert's text, "" for none
	}{
		{"R8f_deadq_oldest_over_a_day", "DLQ", []mqwatch.Summary{aged(1, 25*h, false), aged(2, 2*h, false), aged(3, 10*time.Minute, false)}, 0,
			"dead letters left unattended: the oldest has waited 25h00m (over 1 day here); 2 messages over 1 h, 1 message over 1 day, none over 1 week"},
		{"R8f_boq_oldest_over_a_day", "ORDERS.BO", []mqwatch.Summary{aged(1, 9*24*h, true)}, 0,
			"dead letters left unattended: the oldest has waited 9d (over 1 day here); 1 message over 1 h, 1 message over 1 day, 1 message over 1 week"},
		{"R8f_within_a_day_is_no_alert", "DLQ", []mqwatch.Summary{aged(1, 23*h, false)}, 0, ""},
		{"R8f_threshold_of_the_queue_manager", "DLQ", []mqwatch.Summary{aged(1, 3*h, false)}, 2 * h,
			"dead letters left unattended: the oldest has waited 3h00m (over 2 h here); 1 message over 1 h, none over 1 day, none over 1 week"},
		{"R8f_longer_threshold_holds_it_back", "DLQ", []mqwatch.Summary{aged(1, 25*h, false)}, 3 * 24 * h, ""},
		{"R8f_off_when_negative", "DLQ", []mqwatch.Summary{aged(1, 30*24*h, false)}, -1, ""},
		{"R8f_empty_queue_is_no_alert", "DLQ", nil, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := foldAged(tc.queue, tc.msgs, tc.threshold)
			a := r8f(q)
			switch {
			case tc.want == "" && a != nil:
				t.Fatalf("R8f fired: %q", a.Text)
			case tc.want == "":
				return
			case a == nil:
				t.Fatalf("no R8f among %s", alertRules(q))
			case a.Text != tc.want || a.Queue != tc.queue || a.Severity != actions.Warning || a.Fix != "":
				t.Fatalf("R8f %s %s %q fix %q;\nwant warning on %s %q, no MQSC fix", a.Severity, a.Queue, a.Text, a.Fix, tc.queue, tc.want)
			}
		})
	}
}

// TestR8fBandsFollowTheInventoryAndTheClock: the bands counted from what
// changed (a drain at the head, arrivals at the tail) are those of the
// inventory counted afresh, and a message moves into an older band as the
// clock passes, with no new message.
func TestR8fBandsFollowTheInventoryAndTheClock(t *testing.T) {
	s := New(func() time.Time { return t0 }, 2*time.Second)
	var msgs []mqwatch.Summary
	for i := range 200 {
		msgs = append(msgs, aged(i, time.Duration(200-i)*time.Hour, false)) // 200 h old down to 1 h
	}
	inv := (*mqwatch.Inventory)(nil).Append(msgs...)
	dlq := local("DLQ", 200, 5000, 0, "")
	dlq.Role = mqwatch.RoleDeadQ
	b := &snapBuilder{views: []mqwatch.QueueView{dlq}, invs: map[string]*mqwatch.Inventory{"DLQ": inv}}
	s.Fold(b.snap(t0))
	q := s.QMgr("QM1")
	if got, want := q.Queues["DLQ"].Ages, (AgeBands{OverHour: 199, OverDay: 176, OverWeek: 32, Oldest: t0.Add(-200 * time.Hour)}); got != want {
		t.Fatalf("bands %+v, want %+v", got, want)
	}
	// A requeue drains 150 from the head; 3 arrive.
	later := t0.Add(2 * time.Hour)
	inv = inv.DropHead(150).Append(aged(900, -2*time.Hour, false), aged(901, -90*time.Minute, false), aged(902, -time.Hour, false))
	b.invs["DLQ"] = inv
	s.Fold(b.snap(later))
	fresh := &ageHist{}
	fresh.update(inv)
	want := fresh.bands(later)
	want.Oldest = t0.Add(-50 * time.Hour) // the 151st of the 200: the first the drain left
	if got := q.Queues["DLQ"].Ages; got != want {
		t.Fatalf("bands after the drain %+v, counted afresh %+v", got, want)
	}
	if got := q.Queues["DLQ"].Ages; got.OverHour != 50 || got.OverDay != 28 || got.OverWeek != 0 {
		t.Fatalf("bands two hours on %+v, want 50 over 1 h, 28 over 1 day, none over 1 week", got)
	}
}

// TestR8gMessagesWithoutAnMQDLHAreGroupedApart: on a DEADQ the groups of
// messages without an MQDLH come last, however many they hold, and each
// says what to do: put back where a JMS consumer moved them from (the
// DEADQ is its BOQNAME), moved to their JMS destination, or asked about.
func TestR8gMessagesWithoutAnMQDLHAreGroupedApart(t *testing.T) {
	jms := func(id int, dst string) mqwatch.Summary {
		s := dl(id, 0, "")
		s.HasDLH, s.DLHDestQ, s.DLHDestQMgr, s.HasRFH2, s.JMSDst = false, "", "", dst != "", dst
		return s
	}
	var msgs []mqwatch.Summary
	for i := range 5 {
		msgs = append(msgs, jms(i, "queue:///ORDERS.IN"), jms(10+i, "queue:///PAYMENTS.IN"), jms(20+i, ""))
	}
	msgs = append(msgs, dl(30, 2085, "INVOICE.IN"))
	s := New(func() time.Time { return t0 }, 2*time.Second)
	b := &snapBuilder{views: []mqwatch.QueueView{local("DLQ", int32(len(msgs)), 5000, 0, ""),
		local("ORDERS.IN", 0, 5000, 3, "DLQ"), local("PAYMENTS.IN", 0, 5000, 3, "PAYMENTS.BO")},
		invs: map[string]*mqwatch.Inventory{"DLQ": (*mqwatch.Inventory)(nil).Append(msgs...)}}
	s.Fold(b.snap(t0))
	q := s.QMgr("QM1")
	gs := q.Groups["DLQ"].Groups(DimReasonDest)
	if len(gs) != 4 || gs[0].Key.Reason != 2085 {
		t.Fatalf("groups %+v: want the one with an MQDLH first, though smaller", gs)
	}
	for _, tc := range []struct {
		name, dest, want string
	}{
		{"R8g_boqname_is_the_deadq", "ORDERS.IN", "no MQDLH: ORDERS.IN's JMS consumer moved them (R5): requeue once it takes them"},
		{"R8g_jms_destination", "PAYMENTS.IN", "no MQDLH, by an application: move them to PAYMENTS.IN (their JMS destination)"},
		{"R8g_nothing_says_where", "", "no MQDLH, by an application; nothing says where they go: ask it (PutApplName)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g *Group
			for _, x := range gs[1:] {
				if x.Key.Reason == 0 && x.Key.DestQ == tc.dest {
					g = x
				}
			}
			if g == nil || g.Count != 5 {
				t.Fatalf("no group of 5 without an MQDLH for %q among %+v", tc.dest, gs)
			}
			got := q.NoDLHAdvice("DLQ", g.Key)
			if got != tc.want+"; runmqdlq skips them (R8g)" {
				t.Fatalf("advice %q, want %q", got, tc.want)
			}
		})
	}
}

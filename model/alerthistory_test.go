package model

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
)

var ta0 = time.Date(2026, 12, 1, 20, 41, 0, 0, time.UTC)

func loop(sev actions.Severity) Alert {
	return Alert{Severity: sev, Rule: "R1c", QMgr: "QM1", Queue: "ORDERS.IN", Text: "LOOP"}
}

// TestAlertTransitions drives one alert through polls and checks its
// history after each: started, flapped, cleared, ended, fired anew.
func TestAlertTransitions(t *testing.T) {
	crit := loop(actions.Critical)
	type poll struct {
		at     time.Duration // after ta0
		firing bool
		kinds  string // transitions, comma-separated
		start  time.Duration
		flaps  int
		open   bool // the book still remembers it
	}
	cases := []struct {
		name  string
		polls []poll
	}{
		{"fires_once_and_keeps_its_start", []poll{
			{0, true, "fired", 0, 0, true},
			{10 * time.Second, true, "", 0, 0, true},
			{12 * time.Minute, true, "", 0, 0, true},
		}},
		{"clear_within_flap_window_is_a_flap", []poll{
			{0, true, "fired", 0, 0, true},
			{time.Minute, false, "cleared", 0, 0, true},
			{2 * time.Minute, true, "flapped", 0, 1, true},
			{3 * time.Minute, false, "cleared", 0, 1, true},
			{3*time.Minute + 30*time.Second, true, "flapped", 0, 2, true},
		}},
		{"clear_past_flap_window_ends_and_firing_again_is_new", []poll{
			{0, true, "fired", 0, 0, true},
			{time.Minute, false, "cleared", 0, 0, true},
			{time.Minute + FlapWindow + time.Second, false, "ended", 0, 0, false},
			{10 * time.Minute, true, "fired", 10 * time.Minute, 0, true},
		}},
		{"same_poll_seen_twice_counts_once", []poll{
			{0, true, "fired", 0, 0, true},
			{0, true, "", 0, 0, true},
			{time.Minute, true, "", 0, 0, true},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewAlertBook()
			for i, p := range c.polls {
				var alerts []Alert
				if p.firing {
					alerts = []Alert{crit}
				}
				var kinds []string
				for _, tr := range b.Observe("QM1", alerts, ta0.Add(p.at)) {
					kinds = append(kinds, tr.Kind)
				}
				if got := strings.Join(kinds, ","); got != p.kinds {
					t.Errorf("poll %d: transitions %q, want %q", i, got, p.kinds)
				}
				e, ok := b.Episode(crit.Key())
				if ok != p.open {
					t.Fatalf("poll %d: remembered %v, want %v", i, ok, p.open)
				}
				if !ok {
					continue
				}
				if !e.Start.Equal(ta0.Add(p.start)) || e.Flaps != p.flaps || e.Firing() != p.firing {
					t.Errorf("poll %d: start %s flaps %d firing %v, want %s %d %v", i, e.Start.Sub(ta0), e.Flaps, e.Firing(), p.start, p.flaps, p.firing)
				}
			}
		})
	}
}

// TestAlertAckLastsTheEpisode: an acknowledgement holds while the alert
// fires and flaps, a snooze until its time, and a new episode starts
// unacknowledged.
func TestAlertAckLastsTheEpisode(t *testing.T) {
	crit := loop(actions.Critical)
	cases := []struct {
		name  string
		ack   Ack
		polls []time.Duration // alert cleared at these (after ta0)
		check time.Duration
		want  bool
	}{
		{"ack_holds_while_firing", Ack{By: "alice", At: ta0}, nil, time.Hour, true},
		{"ack_holds_through_a_flap", Ack{By: "alice", At: ta0}, []time.Duration{time.Minute}, time.Hour, true},
		{"ack_ends_with_the_episode", Ack{By: "alice", At: ta0}, []time.Duration{time.Minute, time.Minute + FlapWindow + time.Second}, time.Hour, false},
		{"snooze_15m_holds_before", Ack{By: "bob", At: ta0, Snooze: true, Until: ta0.Add(15 * time.Minute)}, nil, 14 * time.Minute, true},
		{"snooze_15m_over_after", Ack{By: "bob", At: ta0, Snooze: true, Until: ta0.Add(15 * time.Minute)}, nil, 16 * time.Minute, false},
		{"snooze_until_it_clears", Ack{By: "bob", At: ta0, Snooze: true}, nil, 4 * time.Hour, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewAlertBook()
			b.Observe("QM1", []Alert{crit}, ta0)
			if _, ok := b.Acknowledge(crit.Key(), c.ack); !ok {
				t.Fatal("acknowledge: alert not known")
			}
			for _, at := range c.polls {
				b.Observe("QM1", nil, ta0.Add(at))
			}
			last := ta0.Add(c.check)
			b.Observe("QM1", []Alert{crit}, last)
			al := []Alert{crit}
			b.annotate(al, last)
			if got := al[0].Acked(last); got != c.want {
				t.Errorf("acked at +%s = %v, want %v (%+v)", c.check, got, c.want, al[0].History)
			}
		})
	}
}

func TestAlertKeySeparatesSeverityAndQueue(t *testing.T) {
	warn, crit := loop(actions.Warning), loop(actions.Critical)
	other := crit
	other.Queue = "PAYMENTS.IN"
	if warn.Key() == crit.Key() || crit.Key() == other.Key() {
		t.Fatal("keys collide")
	}
	a := Alert{Severity: actions.Critical, QMgr: "QM1", Text: "not connected: MQRC_HOST_NOT_AVAILABLE (2538)"}
	b := a
	b.Text = "not connected: MQRC_CONNECTION_BROKEN (2009)"
	if a.Key() != b.Key() {
		t.Error("a rule-less alert's key changes with its error text")
	}
}

// TestAlertOrderAckedLast: acknowledged alerts sort after the rest, never
// dropped; counts leave them out of critical and warning.
func TestAlertOrderAckedLast(t *testing.T) {
	s := New(func() time.Time { return ta0.Add(time.Minute) }, time.Second)
	q := s.QMgr("QM1")
	crit, warn := loop(actions.Critical), Alert{Severity: actions.Warning, Rule: "R8d", QMgr: "QM1", Queue: "DEADQ", Text: "growing"}
	q.Alerts = []Alert{crit, warn}
	s.Book.Observe("QM1", q.Alerts, ta0)
	s.Book.Acknowledge(crit.Key(), Ack{By: "alice", At: ta0, Note: "looking at the ORDERS consumer"})
	s.Reannotate()
	if len(q.Alerts) != 2 || q.Alerts[0].Rule != "R8d" || q.Alerts[1].Rule != "R1c" {
		t.Fatalf("order %v, want R8d then the acknowledged R1c", q.Alerts)
	}
	c, w, k, z := q.AlertCounts(s.Now())
	if c != 0 || w != 1 || k != 1 || z != 0 {
		t.Errorf("counts crit %d warn %d acked %d snoozed %d, want 0 1 1 0", c, w, k, z)
	}
	if old := q.OldestUnacked(s.Now()); old == nil || old.Rule != "R8d" {
		t.Errorf("oldest unacked %v, want R8d", old)
	}
	if got := q.Alerts[1].History.Ack.Line(); got != "acked by alice 20:41: looking at the ORDERS consumer" {
		t.Errorf("ack line %q", got)
	}
	// A snooze is counted as snoozed, never as acknowledged.
	s.Book.Acknowledge(warn.Key(), Ack{By: "bob", At: ta0, Snooze: true})
	s.Reannotate()
	if c, w, k, z := q.AlertCounts(s.Now()); c != 0 || w != 0 || k != 1 || z != 1 {
		t.Errorf("after a snooze: crit %d warn %d acked %d snoozed %d, want 0 0 1 1", c, w, k, z)
	}
}

func TestSince(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{45 * time.Second, "since 20:41 (45s)"},
		{12*time.Minute + 30*time.Second, "since 20:41 (12m)"},
		{2*time.Hour + 5*time.Minute, "since 20:41 (2h05m)"},
		{27 * time.Hour, "since Dec 1 20:41 (27h00m)"},
	} {
		if got := Since(ta0, ta0.Add(c.d)); got != c.want {
			t.Errorf("Since(+%s) = %q, want %q", c.d, got, c.want)
		}
	}
}

// TestAlertMergeKeepsNewerAck: a restart or a second server merges what the
// state file remembers.
func TestAlertMergeKeepsNewerAck(t *testing.T) {
	crit := loop(actions.Critical)
	a, b := NewAlertBook(), NewAlertBook()
	a.Observe("QM1", []Alert{crit}, ta0)
	b.Merge(a.Open())
	a.Acknowledge(crit.Key(), Ack{By: "alice", At: ta0.Add(time.Minute)})
	if !b.Merge(a.Open()) {
		t.Fatal("merge of a newer ack changed nothing")
	}
	e, _ := b.Episode(crit.Key())
	if e.Ack.By != "alice" || !e.Start.Equal(ta0) {
		t.Errorf("merged %+v", e)
	}
	if b.Merge(a.Open()) {
		t.Error("merging the same again reports a change")
	}
	// The restarted process keeps folding: the alert is the same one.
	b.Observe("QM1", []Alert{crit}, ta0.Add(time.Hour))
	if e, _ := b.Episode(crit.Key()); !e.Start.Equal(ta0) || e.Ack.By != "alice" {
		t.Errorf("after restart %+v", e)
	}
}

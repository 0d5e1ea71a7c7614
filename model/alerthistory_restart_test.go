package model

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestRestartIsNotAFlap: an alert firing when the process stopped, and
// firing again within FlapWindow of the first poll after the start that
// lacked it (the first polls may lack it only for want of history), goes
// on with its episode: no flap, its start kept. Polls of a queue manager
// that does not answer, or of the warm-up, count for nothing (neither a
// clear nor a flap); lacking it past FlapWindow, it ended.
func TestRestartIsNotAFlap(t *testing.T) {
	crit := loop(actions.Critical)
	type poll struct {
		at      time.Duration // after ta0
		firing  bool
		settled bool
		kinds   string
	}
	cases := []struct {
		name          string
		clearedBefore bool // it had cleared on screen before the stop
		polls         []poll
		start         time.Duration // of the episode after the polls
		flaps         int
	}{
		{"firing_at_the_first_poll", false, []poll{
			{time.Hour, true, true, ""},
		}, 0, 0},
		{"missing_from_the_first_polls_then_firing", false, []poll{
			{time.Hour, false, true, ""},
			{time.Hour + 5*time.Second, false, true, ""},
			{time.Hour + 40*time.Second, true, true, ""},
		}, 0, 0},
		{"unsettled_polls_count_for_nothing", false, []poll{
			{time.Hour, false, false, ""},
			{time.Hour + 10*time.Minute, false, false, ""},
			{time.Hour + 11*time.Minute, false, true, ""},
			{time.Hour + 12*time.Minute, true, true, ""},
		}, 0, 0},
		{"missing_past_the_flap_window_ended_and_firing_is_new", false, []poll{
			{time.Hour, false, true, ""},
			{time.Hour + time.Minute, false, true, ""},
			{time.Hour + FlapWindow + time.Second, false, true, "ended"},
			{time.Hour + 5*time.Minute, true, true, "fired"},
		}, time.Hour + 5*time.Minute, 0},
		{"firing_again_after_that_is_a_flap", false, []poll{
			{time.Hour, true, true, ""},
			{time.Hour + time.Minute, false, true, "cleared"},
			{time.Hour + 2*time.Minute, true, true, "flapped"},
		}, 0, 1},
		{"cleared_before_the_stop_then_firing_is_a_flap", true, []poll{
			{time.Minute, true, true, "flapped"},
		}, 0, 1},
		{"cleared_before_the_stop_then_firing_in_the_warm_up_is_not", true, []poll{
			{-10 * time.Minute, true, false, ""},
			{time.Minute, true, true, ""},
		}, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := NewAlertBook()
			before.Observe("QM1", []Alert{crit}, ta0)
			before.Observe("QM1", []Alert{crit}, ta0.Add(10*time.Second))
			if c.clearedBefore {
				before.Observe("QM1", nil, ta0.Add(20*time.Second))
			}
			after := NewAlertBook() // the restarted process reads the state file
			after.Merge(before.Open())
			for i, p := range c.polls {
				var alerts []Alert
				if p.firing {
					alerts = []Alert{crit}
				}
				observe := after.ObserveUnsettled
				if p.settled {
					observe = after.Observe
				}
				var kinds []string
				for _, tr := range observe("QM1", alerts, ta0.Add(p.at)) {
					kinds = append(kinds, tr.Kind)
				}
				if got := strings.Join(kinds, ","); got != p.kinds {
					t.Errorf("poll %d: transitions %q, want %q", i, got, p.kinds)
				}
			}
			e, ok := after.Episode(crit.Key())
			if !ok || !e.Start.Equal(ta0.Add(c.start)) || e.Flaps != c.flaps || !e.Firing() {
				t.Fatalf("after the restart: %+v (known %v), want start %s, %d flaps, firing", e, ok, ta0.Add(c.start), c.flaps)
			}
		})
	}
}

// TestRestartFirstPollsAndWarmUpAreNotAFlap folds polls as a restarted
// dashboard does: a DEADQ's growth (R8d) needs two polls of depth, so the
// first poll after the start lacks it, and a warm-up's simulated history
// may lack it for longer. Neither is the alert clearing.
func TestRestartFirstPollsAndWarmUpAreNotAFlap(t *testing.T) {
	for _, warming := range []bool{false, true} {
		name := map[bool]string{false: "first_polls", true: "warm_up"}[warming]
		t.Run(name, func(t *testing.T) {
			first := New(func() time.Time { return t0 }, 5*time.Second)
			growing(first, &snapBuilder{}, t0, 0, 3, 2)
			r8d, ok := firingRule(first, "R8d")
			if !ok {
				t.Fatal("the first process saw no R8d")
			}

			restarted := New(func() time.Time { return t0.Add(time.Hour) }, 5*time.Second)
			restarted.Book.Merge(first.Book.Open())
			restarted.Warming = warming
			b := &snapBuilder{}
			at := t0.Add(time.Hour)
			if warming {
				// The warm-up's history: a DEADQ standing still for a minute.
				growing(restarted, b, at, 6, 4, 0)
				restarted.Warming = false
				at = at.Add(4 * time.Minute)
			}
			growing(restarted, b, at, 6, 2, 2)
			got, ok := firingRule(restarted, "R8d")
			if !ok {
				t.Fatal("the restarted process sees no R8d")
			}
			if h := got.History; !h.Start.Equal(r8d.History.Start) || h.Flaps != 0 || !h.Firing() {
				t.Fatalf("R8d after the restart: start %s flaps %d firing %v, want the first start %s, no flap",
					h.Start, h.Flaps, h.Firing(), r8d.History.Start)
			}
		})
	}
}

// growing folds polls polls of QM1, a minute apart from at, with a DEADQ
// of depth messages that gains add a poll.
func growing(s *State, b *snapBuilder, at time.Time, depth, polls, add int) {
	var inv *mqwatch.Inventory
	for i := range depth {
		inv = inv.Append(msg(byte(i), 0))
	}
	for i := range polls {
		var added []mqwatch.Summary
		for range add {
			added = append(added, msg(byte(inv.Len()), 0))
		}
		inv = inv.Append(added...)
		b.views = []mqwatch.QueueView{local("DLQ", int32(inv.Len()), 100, 0, "")}
		b.views[0].Role = mqwatch.RoleDeadQ
		b.invs = map[string]*mqwatch.Inventory{"DLQ": inv}
		b.delta = map[string]mqwatch.InventoryDelta{"DLQ": {Added: added}}
		s.Fold(b.snap(at.Add(time.Duration(i) * time.Minute)))
	}
}

func firingRule(s *State, rule string) (Alert, bool) {
	for _, al := range s.QMgr("QM1").Alerts {
		if al.Rule == rule {
			return al, true
		}
	}
	return Alert{}, false
}

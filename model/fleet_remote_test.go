package model

import (
	"slices"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
)

func TestRemoteRowLevelAndCounts(t *testing.T) {
	crit := RemoteAlert{Rule: "R1c", Queue: "A.IN", Severity: actions.Critical, Count: 1}
	warn := RemoteAlert{Rule: "R8b", Queue: "A.BO", Severity: actions.Warning, Count: 2}
	silenced := crit
	silenced.Queue, silenced.Silence = "B.IN", &Silence{By: "alice"}
	acked := crit
	acked.Queue, acked.Acked = "C.IN", true
	tests := []struct {
		name             string
		row              RemoteRow
		level            int
		crit, warn, held int
		top              string
	}{
		{"healthy", RemoteRow{}, 0, 0, 0, 0, ""},
		{"a warning", RemoteRow{Alerts: []RemoteAlert{warn}}, 1, 0, 2, 0, "R8b"},
		{"stale", RemoteRow{Link: RemoteStale}, 1, 0, 0, 0, ""},
		{"not connected", RemoteRow{Link: RemoteNotConnected}, 2, 0, 0, 0, ""},
		{"down", RemoteRow{Link: RemoteDown}, 2, 0, 0, 0, ""},
		{"connecting is not trouble yet", RemoteRow{Link: RemoteConnecting}, 0, 0, 0, 0, ""},
		{"critical before warning", RemoteRow{Alerts: []RemoteAlert{warn, crit}}, 2, 1, 2, 0, "R1c"},
		{"held alerts leave the counts and come last", RemoteRow{Alerts: []RemoteAlert{silenced, acked, warn}}, 1, 0, 2, 2, "R8b"},
		{"only held: no top", RemoteRow{Alerts: []RemoteAlert{silenced}}, 0, 0, 0, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.row
			r.Count()
			top := ""
			if a := r.Top(); a != nil {
				top = a.Rule
			}
			if r.Level() != tt.level || r.Crit != tt.crit || r.Warn != tt.warn || r.Held != tt.held || top != tt.top {
				t.Errorf("level %d crit %d warn %d held %d top %q; want %d %d %d %d %q",
					r.Level(), r.Crit, r.Warn, r.Held, top, tt.level, tt.crit, tt.warn, tt.held, tt.top)
			}
			if n := len(r.Alerts); n > 0 && !r.Alerts[n-1].Held() && r.Held > 0 {
				t.Errorf("a held alert is not last: %+v", r.Alerts)
			}
		})
	}
}

// Worst first: those nobody can see, then by critical and warning
// alerts, looping queues, DEADQ arrivals; then name and instance, so that
// equal rows keep one order.
func TestSortRemoteWorstFirst(t *testing.T) {
	now := time.Date(2026, 6, 4, 10, 0, 0, 0, time.UTC)
	crit := []RemoteAlert{{Rule: "R1c", Severity: actions.Critical, Count: 1}}
	rows := []RemoteRow{
		{QMgr: "QM-OK", Instance: "b:9464", LastGood: now},
		{QMgr: "QM-OK", Instance: "a:9464", LastGood: now},
		{QMgr: "QM-DLQ", DeadRate: 30, DeadRateOK: true},
		{QMgr: "QM-LOOP2", Looping: 2, Alerts: crit},
		{QMgr: "QM-LOOP1", Looping: 1, Alerts: crit},
		{QMgr: "QM-DOWN", Link: RemoteDown},
		{QMgr: "QM-NC", Link: RemoteNotConnected},
		{QMgr: "QM-STALE", Link: RemoteStale},
	}
	for i := range rows {
		rows[i].Count()
	}
	SortRemote(rows)
	var got []string
	for _, r := range rows {
		got = append(got, r.QMgr+"@"+r.Instance)
	}
	want := []string{"QM-DOWN@", "QM-NC@", "QM-LOOP2@", "QM-LOOP1@", "QM-STALE@", "QM-DLQ@", "QM-OK@a:9464", "QM-OK@b:9464"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v\nwant  %v", got, want)
	}
	f := RemoteFleet{Rows: rows}
	if up, stale, bad, waiting := f.RemoteCounts(); up != 5 || stale != 1 || bad != 2 || waiting != 0 {
		t.Errorf("counts up %d stale %d bad %d waiting %d", up, stale, bad, waiting)
	}
	if age := rows[6].Age(now.Add(3 * time.Second)); age != 3*time.Second {
		t.Errorf("age %s", age)
	}
}

package model

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestRing(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	r := NewRing(3)
	if _, ok := r.PerMinute(time.Minute); ok {
		t.Fatal("empty ring has a rate")
	}
	for i := 0; i < 5; i++ {
		r.Add(t0.Add(time.Duration(i)*30*time.Second), float64(i*10))
	}
	if got := r.Values(); len(got) != 3 || got[0] != 20 || got[2] != 40 {
		t.Fatalf("values %v", got)
	}
	rate, ok := r.PerMinute(5 * time.Minute)
	if !ok || rate != 20 {
		t.Fatalf("rate %v %v, want 20/min", rate, ok)
	}
	rate, _ = r.PerMinute(30 * time.Second)
	if rate != 20 {
		t.Fatalf("windowed rate %v", rate)
	}
}

// A ring keeps the newest points past wrapping around several times, and
// takes no memory before its first point.
func TestRingWrapsAndStartsEmpty(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	r := NewRing(4)
	if r.Len() != 0 || r.ts != nil {
		t.Fatalf("an empty ring holds %d points, storage %v", r.Len(), r.ts)
	}
	for i := range 11 {
		r.Add(t0.Add(time.Duration(i)*time.Second), float64(i))
	}
	if got := r.Values(); len(got) != 4 || got[0] != 7 || got[3] != 10 {
		t.Fatalf("values %v, want 7..10", got)
	}
	if p := r.At(0); !p.T.Equal(t0.Add(7*time.Second)) || p.V != 7 {
		t.Fatalf("oldest point %v", p)
	}
	if last, ok := r.Last(); !ok || !last.T.Equal(t0.Add(10*time.Second)) {
		t.Fatalf("newest point %v %v", last, ok)
	}
}

// An input queue keeps the depth history its rate needs; the DEADQ and the
// backout queues keep enough for their sparklines.
func TestDepthHistoryLength(t *testing.T) {
	tests := []struct {
		interval time.Duration
		role     mqwatch.Role
		want     int
	}{
		{2 * time.Second, mqwatch.RoleInput, HistoryLen},
		{5 * time.Second, mqwatch.RoleInput, 62},
		{5 * time.Second, mqwatch.RoleDeadQ, HistoryLen},
		{5 * time.Second, mqwatch.RoleBOQ, HistoryLen},
		{time.Minute, mqwatch.RoleInput, 7},
	}
	for _, tt := range tests {
		q := New(nil, tt.interval).QMgr("QM1")
		if got := q.depthLen(tt.role); got != tt.want {
			t.Errorf("%s %s: %d points, want %d", tt.interval, tt.role, got, tt.want)
		}
		// The rate over RateWindow still sees its whole window.
		if n := q.depthLen(tt.role); time.Duration(n-1)*tt.interval < min(RateWindow, time.Duration(HistoryLen-1)*tt.interval) {
			t.Errorf("%s %s: %d points span less than the rate window", tt.interval, tt.role, n)
		}
	}
}

package model

import (
	"testing"
	"time"
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

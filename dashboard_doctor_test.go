package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestDashboardRunsTheDoctor: the checks run in the background as the
// dashboard starts, and what they find is what the header shows.
func TestDashboardRunsTheDoctor(t *testing.T) {
	qm, _, err := embeddedFromMQSC("testdata/doctor/app1.mqsc")
	if err != nil {
		t.Fatal(err)
	}
	ts, stop, err := embeddedDoctorTarget(qm, "app1.mqsc", "app1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	diag := startDoctor(ctx, ts)
	deadline := time.Now().Add(10 * time.Second)
	for diag("QM1") == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	got := strings.Join(diag("QM1"), "\n")
	if !strings.Contains(got, "app1 lacks +browse +dsp on SYSTEM.DEAD.LETTER.QUEUE") {
		t.Errorf("problems: %q", got)
	}
	if diag("QM2") != nil {
		t.Error("problems for a queue manager not checked")
	}
}

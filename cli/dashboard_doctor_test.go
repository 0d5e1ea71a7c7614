package cli

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestDashboardRunsTheDoctor: the checks run in the background as the
// dashboard starts, and what they find is what the header shows.
func TestDashboardRunsTheDoctor(t *testing.T) {
	qm, _, err := embeddedFromMQSC("../testdata/doctor/app1.mqsc")
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

// TestDashboardUserRunsEveryConnectionAsThatUser: with --mqsc and --user
// the dashboard's connections are held to the file's authority records,
// and the doctor checks that user.
func TestDashboardUserRunsEveryConnectionAsThatUser(t *testing.T) {
	be, err := startBackend(context.Background(), tuiOpts{backend: "embedded", mqsc: "../testdata/doctor/app1.mqsc", user: "app1"})
	if err != nil {
		t.Fatal(err)
	}
	defer be.stop()
	if ts := be.doctorTargets(); len(ts) != 1 || ts[0].Connect.User != "app1" {
		t.Fatalf("doctor targets %+v", ts)
	}
	c, err := be.qmgrs[0].conn.Connect(context.Background(), mqwatch.ConnectOptions{ApplName: "poisonwatch"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.Open(context.Background(), mqwatch.ObjectDesc{Name: "SYSTEM.DEAD.LETTER.QUEUE"}, mqwatch.OpenOptions{Browse: true})
	if mqwatch.ReasonOf(err) != mqfmt.RCNotAuthorized {
		t.Errorf("app1 browsing the DEADQ: %v, want 2035", err)
	}
	if _, err := startBackend(context.Background(), tuiOpts{backend: "embedded", user: "app1"}); err == nil {
		t.Error("--user without --mqsc accepted")
	}
}

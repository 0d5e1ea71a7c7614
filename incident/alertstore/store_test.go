package alertstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/model"
)

var at = time.Date(2026, 12, 1, 20, 41, 0, 0, time.UTC)

var loop = model.Alert{Severity: actions.Critical, Rule: "R1c", QMgr: "QM1", Queue: "ORDERS.IN", Text: "LOOP"}

// A restart keeps who acknowledged what, and the alert's start.
func TestAckSurvivesARestart(t *testing.T) {
	path := Path(t.TempDir(), []string{"QM2", "QM1"})
	if filepath.Base(path) != "alerts-QM1+QM2.json" {
		t.Errorf("path %s", path)
	}
	b := model.NewAlertBook()
	s, err := Open(path, b)
	if err != nil {
		t.Fatal(err)
	}
	b.Observe("QM1", []model.Alert{loop}, at)
	b.Acknowledge(loop.Key(), model.Ack{By: "alice", At: at.Add(2 * time.Minute), Note: "looking at the ORDERS consumer"})
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the directory holds %d files, want only the state file (no temporary left)", len(entries))
	}

	again := model.NewAlertBook()
	if _, err := Open(path, again); err != nil {
		t.Fatal(err)
	}
	again.Observe("QM1", []model.Alert{loop}, at.Add(time.Hour))
	ep, ok := again.Episode(loop.Key())
	if !ok || !ep.Start.Equal(at) || ep.Ack.By != "alice" || ep.Ack.Note != "looking at the ORDERS consumer" {
		t.Fatalf("after restart %+v", ep)
	}
}

// Two servers on one file: what one acknowledges, the other reads.
func TestTwoServersShareAcks(t *testing.T) {
	path := Path(t.TempDir(), []string{"QM1"})
	a, b := model.NewAlertBook(), model.NewAlertBook()
	sa, _ := Open(path, a)
	sb, _ := Open(path, b)
	a.Observe("QM1", []model.Alert{loop}, at)
	b.Observe("QM1", []model.Alert{loop}, at.Add(time.Second))
	if err := sb.Save(); err != nil {
		t.Fatal(err)
	}
	a.Acknowledge(loop.Key(), model.Ack{By: "alice", At: at.Add(time.Minute)})
	if err := sa.Save(); err != nil {
		t.Fatal(err)
	}
	// A server reads the file again when its time changed; two writes in
	// one tick of the file system's clock would look the same, so a's is
	// dated a second later, as a write of another moment is.
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, time.Time{}, st.ModTime().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := sb.Save(); err != nil {
		t.Fatal(err)
	}
	ep, _ := b.Episode(loop.Key())
	if ep.Ack.By != "alice" || !ep.Start.Equal(at) {
		t.Errorf("second server sees %+v", ep)
	}
}

// A damaged file is refused with a clear error and left as it is.
func TestDamagedFileIsRefusedAndKept(t *testing.T) {
	path := Path(t.TempDir(), []string{"QM1"})
	os.WriteFile(path, []byte("{not json"), 0o600)
	_, err := Open(path, model.NewAlertBook())
	if err == nil || !strings.Contains(err.Error(), "move it away") {
		t.Fatalf("err = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "{not json" {
		t.Error("the damaged file was changed")
	}
}

func TestPathOfAnOddSetIsHashed(t *testing.T) {
	p := filepath.Base(Path("/x", []string{"QM/../1"}))
	if !strings.HasPrefix(p, "alerts-set-") || strings.Contains(p, "..") {
		t.Errorf("path %s", p)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"version":1,"alerts":[{"Key":"k","QMgr":"QM1","Start":"2026-12-01T20:41:00Z"}]}`))
	f.Add([]byte(`{"version":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "a.json")
		os.WriteFile(path, data, 0o600)
		b := model.NewAlertBook()
		if _, err := Open(path, b); err != nil {
			return
		}
		b.Observe("QM1", nil, at)
		b.Open()
	})
}

// A restart is not a flap: an alert firing when the dashboard stopped,
// missing from the first poll after each start (the queue manager not
// answering yet, or rates without their second poll), and firing once
// the polls can tell, goes on with its episode, however often the
// dashboard restarts.
func TestRestartIsNotAFlap(t *testing.T) {
	path := Path(t.TempDir(), []string{"QM1"})
	start := at
	for restart := range 5 {
		b := model.NewAlertBook()
		s, err := Open(path, b)
		if err != nil {
			t.Fatal(err)
		}
		b.ObserveUnsettled("QM1", nil, start)
		b.Observe("QM1", []model.Alert{loop}, start.Add(time.Minute))
		if err := s.Save(); err != nil {
			t.Fatal(err)
		}
		ep, _ := b.Episode(loop.Key())
		if !ep.Start.Equal(at.Add(time.Minute)) || ep.Flaps != 0 || !ep.Firing() {
			t.Fatalf("after restart %d: start %s flaps %d firing %v, want the first start %s, no flap",
				restart, ep.Start, ep.Flaps, ep.Firing(), at.Add(time.Minute))
		}
		start = start.Add(time.Hour)
	}
}

package warroom

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// TestAckReachesEverySession: two sessions over the in-process SSH
// transport share one book; alice (operator) acknowledges an alert with a
// note and bob (viewer) sees who and why, in the flash and in his list;
// bob's own K is refused.
func TestAckReachesEverySession(t *testing.T) {
	book := model.NewAlertBook()
	// A BOQNAME naming no queue: a finding the dashboard lists as an alert.
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: feedScript + "DEFINE QLOCAL(LOOP.IN) BOTHRESH(3) BOQNAME(NOWHERE.BO)\n"})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: qm, Interval: time.Hour})
	go w.Run(ctx)
	ts := startTestServer(t, func(c *Config) {
		c.Sources, c.Alerts = []ui.Source{named{w, "QM1"}}, book
		c.App = func(s Session) (tea.Model, error) {
			return ui.New(ui.Options{Sources: s.Sources, Shared: s.Shared, Ops: s.Ops, Room: s.Room, Renderer: s.Renderer, User: s.Who.User,
				ReadOnly: s.Who.Role == Viewer, WarRoom: s.Who.Role == Viewer, Interval: time.Hour, Ctx: s.Ctx}), nil
		}
	})
	alice := ts.open("alice")
	bob := ts.open("bob")
	bob.waitFor("in the room (2)", "▶ alice operator driving")
	bob.in.Write([]byte("a"))
	bob.waitFor("Alerts of every queue manager")
	bob.in.Write([]byte("K"))
	bob.waitFor("viewers cannot acknowledge alerts")

	alice.in.Write([]byte("a"))
	alice.waitFor("Alerts of every queue manager")
	alice.in.Write([]byte("K"))
	alice.waitFor("Acknowledge an alert", "note:")
	alice.in.Write([]byte("looking at the ORDERS consumer"))
	alice.in.Write([]byte("\r"))
	alice.waitFor("acked by alice")
	bob.waitFor("acked by alice", "looking at the ORDERS consumer")

	acked := 0
	for _, ep := range book.Open() {
		if ep.Ack.By == "alice" && ep.Ack.Note == "looking at the ORDERS consumer" {
			acked++
		}
	}
	if acked != 1 {
		t.Fatalf("the book holds %d acknowledgements by alice, want 1: %+v", acked, book.Open())
	}
}

// A viewer's seat refuses an acknowledgement whatever its client sends.
func TestViewerSeatCannotAcknowledge(t *testing.T) {
	r := NewRoom()
	bob := r.Join(Identity{User: "bob", Role: Viewer})
	b := model.NewAlertBook()
	al := model.Alert{Rule: "R1c", QMgr: "QM1", Queue: "ORDERS.IN"}
	b.Observe("QM1", []model.Alert{al}, time.Now())
	if _, err := bob.Acknowledge(b, al.Key(), model.Ack{By: "alice", At: time.Now()}); err != ErrViewerAck {
		t.Fatalf("err = %v, want ErrViewerAck", err)
	}
	if ep, _ := b.Episode(al.Key()); ep.Ack.By != "" {
		t.Fatalf("the viewer's acknowledgement was recorded: %+v", ep.Ack)
	}
	alice := r.Join(Identity{User: "alice", Role: Operator})
	ep, err := alice.Acknowledge(b, al.Key(), model.Ack{By: "mallory", At: time.Now()})
	if err != nil || ep.Ack.By != "alice" {
		t.Fatalf("operator ack: %+v, %v; want recorded as alice whatever the client said", ep.Ack, err)
	}
}

// An acknowledgement in a room is an entry of the room's journal, and the
// room is told it in the journal's words, once.
func TestAcknowledgementIsAJournalEntry(t *testing.T) {
	r := NewRoom()
	j := journal.New()
	r.Tell(j)
	alice := r.Join(Identity{User: "alice", Role: Operator})
	b := model.NewAlertBook()
	al := model.Alert{Rule: "R1c", QMgr: "QM1", Queue: "ORDERS.IN"}
	b.Observe("QM1", []model.Alert{al}, time.Now())
	if _, err := alice.Acknowledge(b, al.Key(), model.Ack{At: time.Now(), Note: "on it"}); err != nil {
		t.Fatal(err)
	}
	var acks []journal.Entry
	for _, e := range j.Entries() {
		if e.Kind == journal.Ack {
			acks = append(acks, e)
		}
	}
	if len(acks) != 1 || acks[0].User != "alice" || acks[0].Alert != al.Key() || acks[0].Note != "on it" {
		t.Fatalf("journal %+v, want alice's acknowledgement", j.Entries())
	}
	st := <-alice.Updates()
	told := 0
	for _, ev := range st.Events {
		if strings.Contains(ev.Text, "acknowledged R1c on ORDERS.IN") {
			told++
		}
	}
	if told != 1 {
		t.Fatalf("the room was told %d times: %+v", told, st.Events)
	}
}

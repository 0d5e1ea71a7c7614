package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/incident/report"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
	"github.com/poisonwatch/poisonwatch/warroom"
)

const journalMQSC = `DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(5000)
ALTER QMGR DEADQ(QM1.DEADQ)
DEFINE QLOCAL(ORDERS.IN) MAXDEPTH(5000)
DEFINE QLOCAL(ORDERS.BO) MAXDEPTH(40)
`

// deadLetterBack puts a message on the DEADQ as a consumer refusing it
// would: an MQDLH with MQRC_Q_FULL naming dest, the MsgId kept.
func deadLetterBack(t *testing.T, c mqwatch.Conn, md mqfmt.MQMD, data []byte, dest string) {
	t.Helper()
	dmd, ddata, err := actions.ToDeadLetter(md, data, actions.DeadLetterOptions{Reason: mqfmt.RCQFull, DestQName: dest,
		DestQMgrName: "QM1", PutApplType: mqfmt.ATUnix, PutApplName: "OrdersMDB", Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	embeddedtest.Put(t, c, "QM1.DEADQ", dmd, ddata)
}

// consumerClock is the engine's clock with ORDERS.IN's consumer in its
// sleep: while ORDERS.BO is full the consumer dead-letters every message it
// gets, so a requeue's messages come back (R10f); the check's waits move the
// clock instead of passing time.
type consumerClock struct {
	t  *testing.T
	qm *embeddedtest.QM
	mu sync.Mutex
	at time.Time
}

func (c *consumerClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.at
}

func (c *consumerClock) Sleep(ctx context.Context, d time.Duration) error {
	conn := c.qm.Conn(mqwatch.ConnectOptions{})
	defer conn.Close()
	if q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: "ORDERS.IN"}, mqwatch.OpenOptions{Input: true}); err == nil {
		for {
			m, err := q.Get(ctx, mqwatch.GetOptions{})
			if err != nil {
				break
			}
			deadLetterBack(c.t, conn, m.MD, m.Data, "ORDERS.BO") // its BOQ was full
		}
		_ = q.Close(ctx)
	}
	c.mu.Lock()
	c.at = c.at.Add(d)
	c.mu.Unlock()
	return ctx.Err()
}

// TestOneJournalTellsEveryViewTheSame: in a war room, an operator
// acknowledges, applies a fix, requeues a group whose messages come back,
// inhibits GET and edits a message; the audit view during the session, the
// audit view of the recording played back, the room's announcements and
// the report (HTML and Markdown) list the same acts with the same outcomes
// in the same order.
func TestOneJournalTellsEveryViewTheSame(t *testing.T) {
	recPath, j, watcher := actsSession(t)
	acts := journal.Acts(j.Entries())
	kinds := []journal.Kind{journal.Ack, journal.Run, journal.Fix, journal.Inhibit, journal.Edit}
	if len(acts) != len(kinds) {
		t.Fatalf("%d acts, want %v: %+v", len(acts), kinds, acts)
	}
	for i, k := range kinds {
		if acts[i].Kind != k {
			t.Fatalf("act %d is %s, want %s", i, acts[i].Kind, k)
		}
	}
	if a := acts[1]; a.Status != journal.Returned || !strings.HasPrefix(a.Outcome, "all 3 came back (R10f) to QM1.DEADQ") {
		t.Fatalf("the requeue came to %q (%s), want all 3 back", a.Outcome, a.Status)
	}

	// Each view, as text; each act's outcome (or, for the ack, its note)
	// must be in it, in the journal's order.
	want := func(a journal.Act) string {
		if a.Kind == journal.Ack {
			return `"on it"`
		}
		return a.Outcome
	}
	live := auditView(t, ui.New(ui.Options{Journal: j, Sources: []ui.Source{recordedQMgr("QM1")}, User: "alice",
		Renderer: lipgloss.NewRenderer(&bytes.Buffer{})}), false)
	pb, err := playbackApp(recPath, tuiOpts{}, lipgloss.NewRenderer(&bytes.Buffer{}))
	if err != nil {
		t.Fatal(err)
	}
	played := auditView(t, pb, true)
	st := <-watcher.Updates()
	var told []string
	for _, ev := range st.Events {
		told = append(told, ev.Text)
	}
	r := report.Build(mustOpen(t, recPath), time.Time{}, time.Time{})
	var html, md bytes.Buffer
	if err := r.HTML(&html); err != nil {
		t.Fatal(err)
	}
	if err := r.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	if _, tl, ok := strings.Cut(md.String(), "## Timeline\n"); ok {
		tl, _, _ = strings.Cut(tl, "\n## ")
		t.Logf("the report's timeline:\n%s", tl)
	}
	views := map[string]string{"live audit view": live, "played-back audit view": played, "room": strings.Join(told, "\n"),
		"HTML report": html.String(), "Markdown report": md.String()}
	for name, v := range views {
		at := 0
		order := acts
		if strings.Contains(name, "audit view") { // newest first, as an audit view lists
			order = slices.Clone(acts)
			slices.Reverse(order)
		}
		for _, a := range order {
			w := want(a)
			if name == "room" && a.Kind == journal.Run {
				w = "all 3 came back (R10f)" // the room hears the run, then what came back
			}
			if name == "HTML report" {
				w = strings.ReplaceAll(w, `"`, "&#34;")
			}
			i := strings.Index(v[at:], w)
			if i < 0 {
				t.Errorf("%s: %s %q missing or out of order:\n%s", name, a.Kind, w, v)
				break
			}
			at += i + len(w)
		}
	}
}

// actsSession is a war room in which alice acknowledges R8b, requeues a
// group whose messages come back (the consumer dead-letters them while
// ORDERS.BO is full), applies the R8b fix, inhibits GET on ORDERS.IN and
// edits a message; it returns the session's recording, the room's journal
// and a viewer's seat.
func actsSession(t *testing.T) (string, *journal.Journal, *warroom.Seat) {
	t.Helper()
	qm := embeddedtest.New(t, embeddedtest.Options{MQSC: journalMQSC, CommandServer: true})
	c := qm.Conn(mqwatch.ConnectOptions{})
	for i := range 3 {
		md := mqfmt.NewMQMD()
		md.Format, md.CodedCharSetId, md.Encoding = mqfmt.FmtString, 819, mqfmt.EncodingNormal
		md.MsgId[0], md.MsgId[1] = 'M', byte('0'+i)
		deadLetterBack(t, c, md, []byte(`{"order":1}`), "ORDERS.IN")
	}
	dir := t.TempDir()
	j := journal.New()
	recPath := filepath.Join(dir, "serve.pwrec")
	rec, err := record.Create(recPath, 0, record.Header{Started: time.Now(), Interval: time.Second, Source: "serve", QMgrs: []string{"QM1"}})
	if err != nil {
		t.Fatal(err)
	}
	j.Subscribe(rec.Entry)
	rec.Snapshot(&mqwatch.Snapshot{Seq: 1, Time: time.Now(), QMgrName: "QM1", Connected: true, QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ"}})
	room := warroom.NewRoom()
	room.Tell(j)
	clk := &consumerClock{t: t, qm: qm, at: time.Now()}
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: qm, QMgr: "QM1", AuditPath: filepath.Join(dir, "audit.jsonl"),
		ArchiveDir: dir, User: "server", Journal: j, Now: clk.Now, Sleep: clk.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	alice := warroom.Identity{User: "alice", Fingerprint: "SHA256:a", Role: warroom.Operator}
	op := &warroom.SessionOps{Engines: &engineOps{engines: map[string]*ops.Engine{"QM1": eng}}, Seat: room.Join(alice), Locks: warroom.NewLocks()}
	watcher := room.Join(warroom.Identity{User: "bob", Fingerprint: "SHA256:b", Role: warroom.Viewer})
	ctx := context.Background()

	// alice acknowledges R8b (her session writes it), applies its fix, and
	// requeues the DEADQ while the consumer still refuses the messages.
	al := model.Alert{Rule: "R8b", QMgr: "QM1", Queue: "ORDERS.BO", Text: "queue full: 40/40"}
	ep := model.Episode{Key: al.Key(), QMgr: "QM1", Rule: "R8b", Queue: "ORDERS.BO", Ack: model.Ack{By: "alice", At: time.Now(), Note: "on it"}}
	j.Append(ep.AckEntry(time.Now()))
	if _, err := op.Run(ctx, ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ", All: true, Verify: 2 * time.Second}, nil); err != nil {
		t.Fatalf("requeue: %v", err)
	}
	fix := actions.PlanFix(actions.FixInput{QMgr: mqwatch.QMgrInfo{Name: "QM1"}, ID: "R8b:ORDERS.BO", Commands: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)"}})
	if _, err := op.ApplyFix(ctx, "QM1", fix, ""); err != nil {
		t.Fatalf("fix: %v", err)
	}
	if _, err := op.SetInhibit(ctx, "QM1", mqwatch.QueueInfo{Name: "ORDERS.IN", Type: mqwatch.QLocal}, "GET", true, ""); err != nil {
		t.Fatalf("inhibit: %v", err)
	}
	first := qm.Browse("QM1.DEADQ")[0]
	if _, err := op.Edit(ctx, ops.EditRequest{QMgr: "QM1", Queue: "QM1.DEADQ", Msg: mqwatch.Summarize(&first), Body: []byte(`{"order":1,"fixed":true}`)}); err != nil {
		t.Fatalf("edit: %v", err)
	}
	rec.Snapshot(&mqwatch.Snapshot{Seq: 2, Time: time.Now().Add(time.Second), QMgrName: "QM1", Connected: true, QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ"}})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}

	return recPath, j, watcher
}

// auditView opens the audit view (A) of app and returns it as text, the
// playback first moved to its end.
func auditView(t *testing.T, app *ui.App, playback bool) string {
	t.Helper()
	app.Update(tea.WindowSizeMsg{Width: 220, Height: 40})
	keys := []string{"A"}
	if playback {
		keys = append([]string{"}", "}"}, keys...)
	}
	for _, k := range keys {
		app.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
	return app.View()
}

func mustOpen(t *testing.T, path string) *record.Recording {
	t.Helper()
	r, err := record.ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

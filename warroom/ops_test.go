package warroom

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// engineOps adapts one engine to ui.Operations, as serve's engines do.
type engineOps struct{ e *ops.Engine }

func (o engineOps) Fetch(ctx context.Context, _, queue string, s mqwatch.Summary) (mqwatch.Message, error) {
	return o.e.Fetch(ctx, queue, s)
}
func (o engineOps) Plan(ctx context.Context, req ops.OpRequest) (ops.OpPlan, error) {
	return o.e.Plan(ctx, req)
}
func (o engineOps) Run(ctx context.Context, req ops.OpRequest, p func(ops.OpProgress)) (ops.OpResult, error) {
	return o.e.Run(ctx, req, p)
}

// opsEnv is a queue manager with dead letters, engines for both roles and a
// room with an operator and a viewer seated.
type opsEnv struct {
	qm      *embeddedtest.QM
	room    *Room
	locks   *Locks
	engines map[Role]ui.Operations
	audit   string
	journal *journal.Journal
}

func newOpsEnv(t *testing.T) *opsEnv {
	t.Helper()
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: feedScript})
	putDeadLetters(t, context.Background(), qm, 3)
	dir := t.TempDir()
	e := &opsEnv{qm: qm, room: NewRoom(), locks: NewLocks(), engines: map[Role]ui.Operations{}, audit: filepath.Join(dir, "audit.jsonl"),
		journal: journal.New()}
	e.room.Tell(e.journal) // as serve does: the room hears the journal
	for _, r := range []Role{Operator, Viewer} {
		eng, err := ops.NewEngine(ops.EngineOptions{Connector: qm, QMgr: "QM1", ReadOnly: r == Viewer,
			AuditPath: e.audit, ArchiveDir: dir, User: "server-user", Journal: e.journal})
		if err != nil {
			t.Fatal(err)
		}
		e.engines[r] = engineOps{eng}
	}
	return e
}

func (e *opsEnv) seat(who Identity) *SessionOps {
	return &SessionOps{Engines: e.engines[who.Role], Seat: e.room.Join(who), Locks: e.locks}
}

var (
	alice = Identity{User: "alice", Fingerprint: "SHA256:alicekey", Role: Operator}
	bob   = Identity{User: "bob", Fingerprint: "SHA256:bobkey", Role: Viewer}
	carol = Identity{User: "carol", Fingerprint: "SHA256:carolkey", Role: Operator}
)

var requeueAll = ops.OpRequest{Op: ops.OpRequeue, QMgr: "QM1", Queue: "QM1.DEADQ", All: true}

func TestViewerIsRefusedByTheOperationsLayer(t *testing.T) {
	e := newOpsEnv(t)
	v := e.seat(bob)
	for _, op := range []ops.Op{ops.OpRequeue, ops.OpDiscard, ops.OpExport} {
		req := requeueAll
		req.Op = op
		if _, err := v.Plan(context.Background(), req); !errors.Is(err, ErrViewer) {
			t.Errorf("viewer %s plan: err = %v, want ErrViewer", op, err)
		}
		if _, err := v.Run(context.Background(), req, nil); !errors.Is(err, ErrViewer) {
			t.Errorf("viewer %s run: err = %v, want ErrViewer", op, err)
		}
	}
	if d := depth(t, e.qm, "QM1.DEADQ"); d != 3 {
		t.Fatalf("DEADQ depth %d after a viewer's attempts, want 3", d)
	}
	// Below the role check, the viewers' engine is read-only too.
	if _, err := e.engines[Viewer].Run(context.Background(), requeueAll, nil); !errors.Is(err, ops.ErrReadOnly) {
		t.Fatalf("viewer engine: err = %v, want ErrReadOnly", err)
	}
}

func TestOperatorRunIsAuditedWithSSHIdentityAndAnnounced(t *testing.T) {
	e := newOpsEnv(t)
	op := e.seat(alice)
	viewer := e.room.Join(bob)
	res, err := op.Run(context.Background(), requeueAll, nil)
	if err != nil || res.Done != 3 {
		t.Fatalf("run: done %d, err %v", res.Done, err)
	}
	f, err := os.Open(e.audit)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		if !strings.Contains(sc.Text(), `"user":"alice (ssh key SHA256:alicekey)"`) {
			t.Fatalf("audit line without the SSH identity: %s", sc.Text())
		}
	}
	if lines != 7 { // each message: pending before its batch's get, its outcome after MQCMIT; the act's line
		t.Fatalf("%d audit lines, want 7", lines)
	}
	st := <-viewer.Updates()
	var told string
	var result bool
	for _, ev := range st.Events {
		if strings.HasPrefix(ev.Text, "alice: ") {
			told = ev.Text
		}
		result = result || ev.Result != nil
	}
	if want := "alice: requeue 3 messages from QM1.DEADQ to their original queues: ORDERS.IN ×3 — 3 requeued"; told != want || !result {
		t.Fatalf("viewer was told %q (result %v), want %q with the result", told, result, want)
	}
}

func TestOneActionPerQueueAcrossSessions(t *testing.T) {
	e := newOpsEnv(t)
	a, c := e.seat(alice), e.seat(carol)
	// Hold alice's run inside the engine: her progress callback waits.
	started, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	done := make(chan error)
	go func() {
		_, err := a.Run(context.Background(), requeueAll, func(ops.OpProgress) {
			once.Do(func() { close(started); <-release })
		})
		done <- err
	}()
	<-started
	var busy *BusyError
	if _, err := c.Plan(context.Background(), requeueAll); !errors.As(err, &busy) || busy.Who.User != "alice" {
		t.Fatalf("carol's plan while alice acts: err = %v, want alice named", err)
	}
	if _, err := c.Run(context.Background(), requeueAll, nil); !errors.As(err, &busy) ||
		!strings.Contains(err.Error(), "alice is acting on QM1.DEADQ (QM1)") {
		t.Fatalf("carol's run while alice acts: err = %v", err)
	}
	other := requeueAll
	other.Queue = "ORDERS.BO"
	if err := e.locks.check(other); err != nil {
		t.Fatalf("another queue is locked too: %v", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := c.Plan(context.Background(), requeueAll); err != nil {
		t.Fatalf("carol's plan after alice finished: %v", err)
	}
}

func TestRoomDriverPresenceAndHandover(t *testing.T) {
	r := NewRoom()
	b := r.Join(bob)
	a := r.Join(alice)
	c := r.Join(carol)
	if ms := r.Members(); len(ms) != 3 || ms[1].User != "alice" || !ms[1].Driving || ms[0].Driving {
		t.Fatalf("the first operator drives: %+v", ms)
	}
	if err := b.Drive(); !errors.Is(err, ErrViewerDrive) {
		t.Fatalf("viewer drives: err = %v", err)
	}
	if err := c.Drive(); err != nil {
		t.Fatal(err)
	}
	c.Leave()
	ms := r.Members()
	if len(ms) != 2 || !ms[1].Driving || ms[1].User != "alice" {
		t.Fatalf("after the driver left, alice drives: %+v", ms)
	}
	a.Publish(ui.SessionView{Cursor: 4})
	st := <-b.Updates()
	if st.Self != b.ID() || st.Members[1].View.Cursor != 4 {
		t.Fatalf("bob sees alice's cursor: %+v", st)
	}
	r.Stop()
	for range a.Updates() { // what was sent before the stop, then closed
	}
	if ms := r.Members(); len(ms) != 0 {
		t.Fatalf("a stopped room keeps %d members", len(ms))
	}
}

// depth is a queue's CURDEPTH, as DISPLAY QSTATUS shows it.
func depth(t *testing.T, qm mqwatch.Connector, queue string) int {
	t.Helper()
	c, err := qm.Connect(context.Background(), mqwatch.ConnectOptions{ApplName: "depth"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, err := c.QueueStatus(context.Background(), queue)
	if err != nil || len(st) != 1 {
		t.Fatalf("QueueStatus(%s): %v, %d answers", queue, err, len(st))
	}
	return int(st[0].Depth)
}

func TestDroppedOperatorStopsTheRunAndFreesTheQueue(t *testing.T) {
	e := newOpsEnv(t)
	a := e.seat(alice)
	watcher := e.room.Join(bob)
	ctx, cancel := context.WithCancel(context.Background())
	req := requeueAll
	req.Batch, req.Workers = 1, 1
	res, _ := a.Run(ctx, req, func(ops.OpProgress) { cancel() }) // the connection drops after the first batch
	if res.Done == 0 || res.Done == 3 {
		t.Fatalf("done %d: want the run stopped part way", res.Done)
	}
	if err := e.locks.check(requeueAll); err != nil {
		t.Fatalf("the queue stays locked after the run stopped: %v", err)
	}
	st := <-watcher.Updates()
	told := ""
	for _, ev := range st.Events {
		told += ev.Text + "\n"
	}
	if !strings.Contains(told, "alice: requeue") || !strings.Contains(told, "stopped") {
		t.Fatalf("the room was told %q: nothing says the run stopped", told)
	}
	if d := depth(t, e.qm, "QM1.DEADQ") + depth(t, e.qm, "ORDERS.IN"); d != 3 {
		t.Fatalf("%d messages on the DEADQ and ORDERS.IN, want all 3 accounted for", d)
	}
}

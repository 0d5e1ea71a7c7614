package conformance

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Reason codes the suite expects that mqfmt does not name yet. Values are IBM's.
const (
	rcNotOpenForPassAll mqfmt.Reason = 2093 // MQRC_NOT_OPEN_FOR_PASS_ALL
	rcContextNotAvail   mqfmt.Reason = 2098 // MQRC_CONTEXT_NOT_AVAILABLE
	rcNotOpenForSetAll  mqfmt.Reason = 2095 // MQRC_NOT_OPEN_FOR_SET_ALL
)

// drainLimit stops clearing a queue that refills as fast as it is drained.
const drainLimit = 100_000

// env is one test's view of the backend: its context, its connections (closed
// when the test ends) and assertion helpers that name what they checked.
type env struct {
	t   *testing.T
	s   *suite
	ctx context.Context
	adm mqwatch.Conn
}

// cleanupCtx is for closing handles after the test's own context ended.
func cleanupCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*time.Second)
}

// connect opens a connection as user, closed when the test ends.
func (e *env) connect(user, appl string) mqwatch.Conn {
	e.t.Helper()
	c, err := e.s.b.Connect(e.ctx, mqwatch.ConnectOptions{User: user, ApplName: appl})
	if err != nil {
		e.t.Fatalf("connect as %q: %v", user, err)
	}
	e.t.Cleanup(func() { _ = c.Close() })
	return c
}

// admin is the test's connection with full authority, made on first use.
func (e *env) admin() mqwatch.Conn {
	e.t.Helper()
	if e.adm == nil {
		e.adm = e.connect(UserAdmin, "conf-admin")
	}
	return e.adm
}

// open opens a queue by name or fails the test; the handle is closed when the
// test ends.
func (e *env) open(c mqwatch.Conn, name string, o mqwatch.OpenOptions) mqwatch.Queue {
	e.t.Helper()
	return e.openDesc(c, mqwatch.ObjectDesc{Name: name}, o)
}

// openDesc is open with a full object descriptor.
func (e *env) openDesc(c mqwatch.Conn, od mqwatch.ObjectDesc, o mqwatch.OpenOptions) mqwatch.Queue {
	e.t.Helper()
	q, err := c.Open(e.ctx, od, o)
	if err != nil {
		e.t.Fatalf("open %+v with %+v: %v", od, o, err)
	}
	e.t.Cleanup(func() {
		ctx, cancel := cleanupCtx()
		defer cancel()
		_ = q.Close(ctx)
	})
	return q
}

// Open option sets the tests use most.
var (
	ooIn     = mqwatch.OpenOptions{Input: true}
	ooOut    = mqwatch.OpenOptions{Output: true}
	ooBrowse = mqwatch.OpenOptions{Browse: true}
	ooInBrw  = mqwatch.OpenOptions{Input: true, Browse: true}
	ooAll    = mqwatch.OpenOptions{Input: true, Browse: true, Output: true, Inquire: true}
)

// newMD returns a string message's descriptor with MQMD_DEFAULT values
// otherwise, adjusted by edits.
func newMD(edits ...func(*mqfmt.MQMD)) mqfmt.MQMD {
	md := mqfmt.NewMQMD()
	md.Format = mqfmt.FmtString
	md.Priority = 0
	for _, f := range edits {
		f(&md)
	}
	return md
}

// withPriority sets the message priority.
func withPriority(p int32) func(*mqfmt.MQMD) { return func(md *mqfmt.MQMD) { md.Priority = p } }

// withIDs sets MsgId and CorrelId from short strings (blank-free, zero padded).
func withIDs(msgID, correlID string) func(*mqfmt.MQMD) {
	return func(md *mqfmt.MQMD) {
		md.MsgId = id(msgID)
		md.CorrelId = id(correlID)
	}
}

// id turns a short string into a 24-byte identifier; "" is MQMI_NONE.
func id(s string) [24]byte {
	var b [24]byte
	copy(b[:], s)
	return b
}

// put puts one message with opts and returns the descriptor as MQPUT left it.
func (e *env) put(q mqwatch.Queue, body string, opts mqwatch.PutOptions, edits ...func(*mqfmt.MQMD)) mqfmt.MQMD {
	e.t.Helper()
	md := newMD(edits...)
	if err := q.Put(e.ctx, &md, []byte(body), opts); err != nil {
		e.t.Fatalf("put %q to %s: %v", body, q.Name(), err)
	}
	return md
}

// putAll puts each body outside syncpoint with a new MsgId.
func (e *env) putAll(q mqwatch.Queue, bodies ...string) {
	e.t.Helper()
	for _, b := range bodies {
		e.put(q, b, mqwatch.PutOptions{NewMsgId: true})
	}
}

// putTo opens name for output as the admin, puts bodies and closes it.
func (e *env) putTo(name string, bodies ...string) {
	e.t.Helper()
	q := e.open(e.admin(), name, ooOut)
	e.putAll(q, bodies...)
	e.closeQ(q)
}

// get removes one message or fails the test.
func (e *env) get(q mqwatch.Queue, o mqwatch.GetOptions) mqwatch.Message {
	e.t.Helper()
	m, err := q.Get(e.ctx, o)
	if err != nil {
		e.t.Fatalf("get from %s with %+v: %v", q.Name(), o, err)
	}
	return m
}

// browse reads one message or fails the test.
func (e *env) browse(q mqwatch.Queue, o mqwatch.BrowseOptions) mqwatch.Message {
	e.t.Helper()
	m, err := q.Browse(e.ctx, o)
	if err != nil {
		e.t.Fatalf("browse %s with %+v: %v", q.Name(), o, err)
	}
	return m
}

// closeQ closes a handle now and fails the test if that fails.
func (e *env) closeQ(q mqwatch.Queue) {
	e.t.Helper()
	if err := q.Close(e.ctx); err != nil {
		e.t.Fatalf("close %s: %v", q.Name(), err)
	}
}

// wantReason checks that err carries reason code rc.
func (e *env) wantReason(err error, rc mqfmt.Reason, what string) {
	e.t.Helper()
	if !mqwatch.IsReason(err, rc) {
		e.t.Errorf("%s: got %s, want %s", what, errText(err), rc.Describe())
	}
}

// wantNoErr fails the test when err is set.
func (e *env) wantNoErr(err error, what string) {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("%s: %v", what, err)
	}
}

func errText(err error) string {
	if err == nil {
		return "no error"
	}
	return fmt.Sprintf("%v (reason %d)", err, int32(mqwatch.ReasonOf(err)))
}

// wantBody checks a message's data.
func (e *env) wantBody(m mqwatch.Message, want, what string) {
	e.t.Helper()
	if string(m.Data) != want {
		e.t.Errorf("%s: got body %q, want %q", what, m.Data, want)
	}
}

// bodies browses a whole queue as the admin and returns the bodies in
// delivery order.
func (e *env) bodies(name string) []string {
	e.t.Helper()
	q := e.open(e.admin(), name, ooBrowse)
	defer e.closeQ(q)
	var out []string
	for o := (mqwatch.BrowseOptions{First: true}); len(out) < drainLimit; o.First = false {
		m, err := q.Browse(e.ctx, o)
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return out
		}
		e.wantNoErr(err, "browse "+name)
		out = append(out, string(m.Data))
	}
	return out
}

// wantBodies checks the bodies on a queue, in delivery order.
func (e *env) wantBodies(name string, want ...string) {
	e.t.Helper()
	got := e.bodies(name)
	if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != len(want) {
		e.t.Errorf("%s holds %q, want %q", name, got, want)
	}
}

// status returns the queue status of one queue, as the admin sees it.
func (e *env) status(name string) mqwatch.QueueStatus {
	e.t.Helper()
	sts, err := e.admin().QueueStatus(e.ctx, name)
	e.wantNoErr(err, "queue status of "+name)
	for _, s := range sts {
		if s.Name == name {
			if len(sts) != 1 {
				e.t.Errorf("queue status for %q returned %d entries, want 1", name, len(sts))
			}
			return s
		}
	}
	e.t.Fatalf("queue status for %q has no entry for it: %+v", name, sts)
	return mqwatch.QueueStatus{}
}

// wantDepth checks CURDEPTH and UNCOM of a queue.
func (e *env) wantDepth(name string, depth, uncom int32, when string) {
	e.t.Helper()
	s := e.status(name)
	if s.Depth != depth || s.Uncommitted != uncom {
		e.t.Errorf("%s: %s CURDEPTH %d UNCOM %d, want CURDEPTH %d UNCOM %d",
			when, name, s.Depth, s.Uncommitted, depth, uncom)
	}
}

// clearQueues empties queues with destructive gets as the admin.
func (e *env) clearQueues(names ...string) {
	e.t.Helper()
	for _, name := range names {
		q := e.open(e.admin(), name, ooIn)
		for i := 0; ; i++ {
			_, err := q.Get(e.ctx, mqwatch.GetOptions{})
			if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
				break
			}
			if err != nil || i >= drainLimit {
				e.t.Fatalf("clear %s: %v after %d messages", name, err, i)
			}
		}
		e.closeQ(q)
	}
}

// capability returns the backend as T when it offers that capability, and
// skips the test with the reason printed otherwise.
func capability[T any](e *env, what string) T {
	e.t.Helper()
	c, ok := e.s.b.(T)
	if !ok {
		e.t.Skipf("backend %T lacks the optional %s capability", e.s.b, what)
	}
	return c
}

// now is the backend's time when it exposes its clock, else the wall clock.
func (e *env) now() time.Time {
	if c, ok := e.s.b.(Clock); ok {
		return c.Now()
	}
	return time.Now()
}

// wantOpenFails checks that opening od fails with rc, and closes the handle
// when the open wrongly succeeds.
func (e *env) wantOpenFails(c mqwatch.Conn, od mqwatch.ObjectDesc, o mqwatch.OpenOptions, rc mqfmt.Reason, what string) {
	e.t.Helper()
	q, err := c.Open(e.ctx, od, o)
	if err == nil {
		_ = q.Close(e.ctx)
	}
	e.wantReason(err, rc, what)
}

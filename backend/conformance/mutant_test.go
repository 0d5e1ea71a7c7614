package conformance

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// A mutant is the embedded queue manager with one IBM MQ behaviour broken,
// the way a backend could plausibly get it wrong. The suite must fail on
// each, in the tests that own that behaviour: this is what shows its
// assertions have teeth, since the embedded queue manager passes them.
type mutant struct {
	name string
	// mustFail are subtests (group/case) that must fail on this mutant.
	mustFail []string
	get      func(*mqwatch.GetOptions)
	putOpts  func(*mqwatch.PutOptions)
	putMD    func(*mqfmt.MQMD)
	// forgetMsgID leaves the caller's MQMD as it was, instead of writing the
	// generated MsgId back.
	forgetMsgID bool
	putErr      func(error) error
	browse      func(*mqwatch.BrowseOptions)
	message     func(*mqwatch.Message)
	status      func([]mqwatch.QueueStatus)
}

func mutants() []mutant {
	return []mutant{
		{name: "backout_count_never_incremented",
			mustFail: []string{"uow/backout_restores_order_and_increments_backout_count", "uow/backout_count_accumulates", "uow/close_with_open_uow_backs_out", "faults/broken_connection_2009_and_uow_backed_out"},
			message:  func(m *mqwatch.Message) { m.MD.BackoutCount = 0 }},
		{name: "gets_ignore_syncpoint",
			mustFail: []string{"uow/get_under_syncpoint_invisible_until_commit", "uow/curdepth_and_uncom_as_ibm_defines", "uow/backout_restores_order_and_increments_backout_count"},
			get:      func(o *mqwatch.GetOptions) { o.Syncpoint = false }},
		{name: "puts_ignore_syncpoint",
			mustFail: []string{"uow/put_under_syncpoint_invisible_until_commit", "uow/backout_discards_uncommitted_put", "wait/wait_ignores_an_uncommitted_put_until_commit"},
			putOpts:  func(o *mqwatch.PutOptions) { o.Syncpoint = false }},
		{name: "queue_full_ignored",
			mustFail: []string{"limits/maxdepth_2053", "limits/uncommitted_puts_count_toward_maxdepth"},
			putErr: func(err error) error {
				if mqwatch.IsReason(err, mqfmt.RCQFull) {
					return nil
				}
				return err
			}},
		{name: "browse_marks_ignored",
			mustFail: []string{"browse/mark_browse_returns_unmarked_and_new_arrivals", "browse/marks_belong_to_the_handle"},
			browse:   func(o *mqwatch.BrowseOptions) { o.Unmarked = false }},
		{name: "context_never_passed",
			mustFail: []string{"context/pass_all_context_from_save_all_context_handle", "authority/pass_all_granted_by_authrec_keeps_context", "context/set_all_context_kept"},
			putOpts:  func(o *mqwatch.PutOptions) { o.Context = mqwatch.ContextDefault }},
		{name: "priority_dropped",
			mustFail: []string{"order/priority_then_fifo", "browse/first_next_in_delivery_order", "match/duplicate_msgids_follow_priority"},
			putMD:    func(md *mqfmt.MQMD) { md.Priority = 0 }},
		{name: "priority_warning_hidden",
			mustFail: []string{"order/priority_above_maxprty_queued_at_maxprty_warning_2049"},
			putErr: func(err error) error {
				if mqwatch.IsReason(err, 2049) {
					return nil
				}
				return err
			}},
		{name: "qmgr_alias_defaults_from_the_xmitq",
			mustFail: []string{"resolve/qmgr_alias_blank_rname_routes_with_its_defaults"},
			putMD: func(md *mqfmt.MQMD) {
				if md.Priority == -1 {
					md.Priority = 0
				}
			}},
		{name: "expiry_dropped",
			mustFail: []string{"expiry/expired_message_is_never_returned", "expiry/expired_message_removed_when_reached", "expiry/expiry_counts_down"},
			putMD:    func(md *mqfmt.MQMD) { md.Expiry = -1 }},
		{name: "correlid_not_matched",
			mustFail: []string{"match/by_msgid_correlid_and_both_with_duplicates"},
			get:      func(o *mqwatch.GetOptions) { o.CorrelId = nil }},
		{name: "msgid_not_written_back",
			mustFail:    []string{"descriptor/generated_unique_and_written_back", "descriptor/none_msgid_generated", "resolve/remote_definition_puts_xqh_on_its_xmitq"},
			forgetMsgID: true},
		{name: "truncation_hidden",
			mustFail: []string{"browse/truncated_browse_reports_full_length", "browse/get_accept_truncated_removes_message"},
			message:  func(m *mqwatch.Message) { m.Length = len(m.Data) }},
		{name: "wait_ignored",
			mustFail: []string{"wait/wait_returns_arriving_message", "wait/wait_times_out_2033", "wait/concurrent_call_on_one_connection_2219"},
			get:      func(o *mqwatch.GetOptions) { o.Wait = 0 }},
		{name: "cursor_ignored",
			mustFail: []string{"cursor/get_under_cursor_removes_browsed_message", "cursor/under_cursor_taken_by_another_2034", "cursor/under_cursor_before_any_browse_2034"},
			get:      func(o *mqwatch.GetOptions) { o.UnderCursor = false }},
		{name: "monitoring_always_reported",
			mustFail: []string{"status/monq_off_leaves_age_and_times_unknown"},
			status: func(ss []mqwatch.QueueStatus) {
				for i := range ss {
					ss[i].Monitored = true
				}
			}},
	}
}

// envMutant selects the mutant TestMutantRun runs in a child process.
const envMutant = "POISONWATCH_CONFORMANCE_MUTANT"

// TestMutantRun runs the suite against one mutant; only TestSuiteCatchesMutants
// starts it (in a child process, since it is meant to fail).
func TestMutantRun(t *testing.T) {
	name := os.Getenv(envMutant)
	if name == "" {
		t.Skip("run by TestSuiteCatchesMutants")
	}
	for _, m := range mutants() {
		if m.name == name {
			Run(t, &mutantBackend{embeddedBackend: newEmbeddedBackend(), m: m})
			return
		}
	}
	t.Fatalf("no mutant %q", name)
}

func TestSuiteCatchesMutants(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole suite once per mutant")
	}
	for _, m := range mutants() {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run", mutantRunPattern(m), "-test.v")
			cmd.Env = append(os.Environ(), envMutant+"="+m.name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a backend whose %s", strings.ReplaceAll(m.name, "_", " "))
			}
			for _, sub := range m.mustFail {
				if !strings.Contains(string(out), "--- FAIL: TestMutantRun/"+sub+" ") {
					t.Errorf("%s did not fail on this mutant", sub)
				}
			}
		})
	}
}

// mutantRunPattern selects the groups holding the tests that must fail, so
// a mutant costs a fraction of a whole run.
func mutantRunPattern(m mutant) string {
	seen := map[string]bool{}
	var gs []string
	for _, sub := range m.mustFail {
		g, _, _ := strings.Cut(sub, "/")
		if !seen[g] {
			seen[g] = true
			gs = append(gs, g)
		}
	}
	return "^TestMutantRun$/^(" + strings.Join(gs, "|") + ")$"
}

// mutantBackend wraps the embedded backend's connections and handles.
type mutantBackend struct {
	*embeddedBackend
	m mutant
}

func (b *mutantBackend) Connect(ctx context.Context, o mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	c, err := b.embeddedBackend.Connect(ctx, o)
	if err != nil {
		return nil, err
	}
	return &mutantConn{Conn: c, m: b.m}, nil
}

func (b *mutantBackend) BreakConnection(c mqwatch.Conn) error {
	return b.embeddedBackend.BreakConnection(c.(*mutantConn).Conn)
}

type mutantConn struct {
	mqwatch.Conn
	m mutant
}

func (c *mutantConn) Open(ctx context.Context, od mqwatch.ObjectDesc, o mqwatch.OpenOptions) (mqwatch.Queue, error) {
	q, err := c.Conn.Open(ctx, od, o)
	if err != nil {
		return nil, err
	}
	return &mutantQueue{Queue: q, m: c.m}, nil
}

func (c *mutantConn) Subscribe(ctx context.Context, sd mqwatch.SubDesc) (mqwatch.Queue, error) {
	q, err := c.Conn.Subscribe(ctx, sd)
	if err != nil {
		return nil, err
	}
	return &mutantQueue{Queue: q, m: c.m}, nil
}

func (c *mutantConn) QueueStatus(ctx context.Context, pattern string) ([]mqwatch.QueueStatus, error) {
	ss, err := c.Conn.QueueStatus(ctx, pattern)
	if err == nil && c.m.status != nil {
		c.m.status(ss)
	}
	return ss, err
}

type mutantQueue struct {
	mqwatch.Queue
	m mutant
}

func (q *mutantQueue) Get(ctx context.Context, o mqwatch.GetOptions) (mqwatch.Message, error) {
	if q.m.get != nil {
		q.m.get(&o)
	}
	msg, err := q.Queue.Get(ctx, o)
	if err == nil && q.m.message != nil {
		q.m.message(&msg)
	}
	return msg, err
}

func (q *mutantQueue) Browse(ctx context.Context, o mqwatch.BrowseOptions) (mqwatch.Message, error) {
	if q.m.browse != nil {
		q.m.browse(&o)
	}
	msg, err := q.Queue.Browse(ctx, o)
	if err == nil && q.m.message != nil {
		q.m.message(&msg)
	}
	return msg, err
}

func (q *mutantQueue) Put(ctx context.Context, md *mqfmt.MQMD, data []byte, o mqwatch.PutOptions) error {
	if from, ok := o.ContextFrom.(*mutantQueue); ok {
		o.ContextFrom = from.Queue // the backend knows its own handles only
	}
	if q.m.putOpts != nil {
		q.m.putOpts(&o)
	}
	if q.m.putMD != nil {
		q.m.putMD(md)
	}
	given := md.MsgId
	err := q.Queue.Put(ctx, md, data, o)
	if q.m.forgetMsgID {
		md.MsgId = given
	}
	if q.m.putErr != nil {
		err = q.m.putErr(err)
	}
	return err
}

// newEmbeddedBackend is a fresh embedded queue manager with a movable clock.
func newEmbeddedBackend() *embeddedBackend {
	clock := newStepClock()
	return &embeddedBackend{qm: embedded.New(embedded.Options{Name: "QM1", Now: clock.Now}), clock: clock}
}

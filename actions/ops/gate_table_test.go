package ops_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// gateScript adds what the guards need: aliases and remote definitions
// that resolve to the command queue or to the queue security refused a
// dead letter at, small and inhibited queues, a model for a temporary
// dynamic queue.
const gateScript = `
DEFINE QALIAS(ADMIN.CMD) TARGET(SYSTEM.ADMIN.COMMAND.QUEUE)
DEFINE QREMOTE(CMD.LOOP) RNAME(SYSTEM.ADMIN.COMMAND.QUEUE) RQMNAME(QM1)
DEFINE QALIAS(ORDERS.ALIAS) TARGET(ORDERS.IN)
DEFINE QREMOTE(ORDERS.LOOP) RNAME(ORDERS.IN) RQMNAME(QM1)
DEFINE QLOCAL(SMALL.Q) MAXMSGL(8)
DEFINE QALIAS(PI.ALIAS) TARGET(PARKING.Q) PUT(DISABLED)
DEFINE QLOCAL(PI.BASE) PUT(DISABLED)
DEFINE QALIAS(PI.BASEALIAS) TARGET(PI.BASE)
DEFINE QMODEL(TEMP.MODEL) DEFTYPE(TEMPDYN)
`

// gateCase is one guard: a dead letter for dest refused with rc, the
// target a path names, and what the gate answers.
type gateCase struct {
	name   string
	dest   string       // the MQDLH DestQName
	rc     mqfmt.Reason // the MQDLH reason
	target string       // "" = the MQDLH DestQName (a requeue's own target)
	body   int          // body bytes; 0 = the usual short one
	setup  func(f *opFixture) string
	after  func(f *opFixture) // once the dead letter is on the DEADQ
	// skip is a text the skip or refusal says; reason a failure the plan
	// predicts. One of them.
	skip   string
	reason mqfmt.Reason
}

var gateCases = []gateCase{
	{name: "R10g SYSTEM queue by name", dest: "SYSTEM.ADMIN.COMMAND.QUEUE", rc: mqfmt.RCQFull, skip: "(R10g)"},
	{name: "R10g alias of the command queue", dest: "ADMIN.CMD", rc: mqfmt.RCQFull, skip: "(R10g)"},
	{name: "R10g QREMOTE back to the command queue", dest: "CMD.LOOP", rc: mqfmt.RCQFull, skip: "(R10g)"},
	{name: "R10b refused destination", dest: "ORDERS.IN", rc: mqfmt.RCNotAuthorized, skip: "MQRC_NOT_AUTHORIZED 2035"},
	{name: "R10b alias of the refused destination", dest: "ORDERS.IN", rc: mqfmt.RCNotAuthorized, target: "ORDERS.ALIAS", skip: "MQRC_NOT_AUTHORIZED 2035"},
	{name: "R10b QREMOTE back to the refused destination", dest: "ORDERS.IN", rc: mqfmt.RCNotAuthorized, target: "ORDERS.LOOP", skip: "MQRC_NOT_AUTHORIZED 2035"},
	{name: "2030 queue MAXMSGL", dest: "SMALL.Q", rc: mqfmt.RCQFull, reason: mqfmt.RCMsgTooBigForQ},
	{name: "2031 queue manager MAXMSGL", dest: "PARKING.Q", rc: mqfmt.RCQFull, body: 40_000, reason: mqfmt.RCMsgTooBigForQMgr,
		after: func(f *opFixture) { f.qm.MQSC("ALTER QMGR MAXMSGL(32768)") }},
	{name: "2048 persistent to a temporary dynamic queue", rc: mqfmt.RCQFull, reason: mqfmt.RCPersistentNotAllowed,
		setup: func(f *opFixture) string { return f.tempDynamic() }},
	{name: "2051 alias put-inhibited", dest: "PI.ALIAS", rc: mqfmt.RCQFull, reason: mqfmt.RCPutInhibited},
	{name: "2051 base put-inhibited", dest: "PI.BASEALIAS", rc: mqfmt.RCQFull, reason: mqfmt.RCPutInhibited},
}

// gatePath is one write path: it plans (dry run) then runs the write of
// the DEADQ's one message to target, and returns what each said of it.
type gatePath struct {
	name string
	run  func(f *opFixture, target string, s mqwatch.Summary, dry bool) (said string, rc int32)
}

var gatePaths = []gatePath{
	{"requeue", opPath(ops.OpRequeue)},
	{"move", opPath(ops.OpMove)},
	{"replay", opPath(ops.OpReplay)},
	{"import", importPath},
	{"edit", editPath},
}

// TestGateEveryWritePathMeetsEveryGuard runs every write path of the
// product against every guard of the target gate, dry and for real: the
// dry run says what the gate says, and the run puts nothing past it.
func TestGateEveryWritePathMeetsEveryGuard(t *testing.T) {
	for _, p := range gatePaths {
		for _, c := range gateCases {
			t.Run(p.name+"/"+c.name, func(t *testing.T) {
				f := newOpFixture(t, gateScript)
				dest := f.arrange(c)
				target := c.target
				if target == "" {
					target = dest
				}
				s := f.summaries("QM1.DEADQ")[0]
				for _, dry := range []bool{true, false} {
					said, rc := p.run(f, target, s, dry)
					if c.skip != "" && !strings.Contains(said, c.skip) || c.reason != 0 && rc != int32(c.reason) {
						t.Fatalf("dry=%v: %s said %q (reason %d), want %q / reason %d", dry, p.name, said, rc, c.skip, c.reason)
					}
				}
				if n := f.depth("QM1.DEADQ"); n != 1 {
					t.Fatalf("the DEADQ holds %d messages after the run, want its 1 untouched", n)
				}
				if q := strings.TrimSpace(target); !strings.HasPrefix(q, "SYSTEM.") && f.qm != nil {
					if n := f.depthIfLocal(q); n > 0 {
						t.Fatalf("%s holds %d messages: the gate let a put through", q, n)
					}
				}
			})
		}
	}
}

// arrange sets up case c: its objects, the dead letter on the DEADQ, what
// changes after; it returns the MQDLH's destination.
func (f *opFixture) arrange(c gateCase) string {
	f.t.Helper()
	dest := c.dest
	if c.setup != nil {
		if q := c.setup(f); q != "" {
			dest = q
		}
	}
	f.deadLetterSized(dest, c.rc, c.body)
	if c.after != nil {
		c.after(f)
	}
	return dest
}

// opPath runs an engine action from the DEADQ: requeue to the MQDLH's
// destination (or a target), move and replay to the target.
func opPath(op ops.Op) func(f *opFixture, target string, s mqwatch.Summary, dry bool) (string, int32) {
	return func(f *opFixture, target string, s mqwatch.Summary, dry bool) (string, int32) {
		req := ops.OpRequest{Op: op, Queue: "QM1.DEADQ", All: true, DryRun: dry, Target: target}
		if op == ops.OpRequeue && target == strings.TrimSpace(s.DLHDestQ) {
			req.Target = ""
		}
		res, err := f.engine().Run(f.ctx, req, nil)
		if len(res.Items) != 1 {
			return "no item: " + errString(err), 0
		}
		it := res.Items[0]
		if it.Kind == ops.Done {
			return "done", 0
		}
		return it.Text(op), it.Reason
	}
}

// importPath exports the dead letter to a file, then imports it to target.
func importPath(f *opFixture, target string, _ mqwatch.Summary, dry bool) (string, int32) {
	file := filepath.Join(f.dir, "gate.dmp")
	if dry {
		if _, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpExport, Queue: "QM1.DEADQ", All: true, File: file}, nil); err != nil {
			return "export: " + err.Error(), 0
		}
	}
	res, err := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpImport, File: file, Target: target, DryRun: dry}, nil)
	if len(res.Items) != 1 {
		return "no item: " + errString(err), 0
	}
	if it := res.Items[0]; it.Kind != ops.Done {
		return it.Text(ops.OpImport), it.Reason
	}
	return "done", 0
}

// editPath edits the dead letter's body and puts the copy to target.
func editPath(f *opFixture, target string, s mqwatch.Summary, dry bool) (string, int32) {
	req := ops.EditRequest{Queue: "QM1.DEADQ", Msg: s, Body: []byte(`{"order":1,"fixed":true}`), DryRun: dry}
	if target != strings.TrimSpace(s.DLHDestQ) {
		req.Target = target
	}
	if s.Length > 30_000 {
		req.Body = make([]byte, s.Length)
	}
	res, err := f.engine().Edit(f.ctx, req)
	if err == nil {
		return "done: " + res.Text, 0
	}
	for _, rc := range []mqfmt.Reason{mqfmt.RCMsgTooBigForQMgr, mqfmt.RCMsgTooBigForQ, mqfmt.RCPersistentNotAllowed, mqfmt.RCPutInhibited} {
		if strings.Contains(err.Error(), rc.String()) {
			return err.Error(), int32(rc)
		}
	}
	return err.Error(), 0
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// tempDynamic opens TEMP.MODEL on a connection the test keeps, which
// makes a temporary dynamic queue for as long as it is open.
func (f *opFixture) tempDynamic() string {
	f.t.Helper()
	q, err := f.conn().Open(f.ctx, mqwatch.ObjectDesc{Name: "TEMP.MODEL", DynamicName: "GATE.TEMP.*"}, mqwatch.OpenOptions{Input: true})
	if err != nil {
		f.t.Fatalf("open TEMP.MODEL: %v", err)
	}
	return q.Name()
}

// deadLetterSized puts message 1 on the DEADQ for dest with a body of size
// bytes (0: the usual one).
func (f *opFixture) deadLetterSized(dest string, rc mqfmt.Reason, size int) {
	f.t.Helper()
	md, data := original(1)
	if size > 0 {
		data = []byte(strings.Repeat("x", size))
	}
	f.deadLetterMsg(f.conn(), md, data, dest, "", rc)
}

// depthIfLocal is a local queue's depth, 0 for another kind of queue.
func (f *opFixture) depthIfLocal(name string) int {
	c := f.conn()
	q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: name}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return 0
	}
	_ = q.Close(f.ctx)
	return f.depth(name)
}

// TestGateRulesForwardMeetsTheGate: a rules table's FWD (and RETRY) reach
// the queue manager through the engine, so the gate judges them on the
// resolved target as it judges requeue and move. (R10b does not apply:
// a table's PUTAUT(DEF) asks for the handler's authority explicitly, as
// runmqdlq's does, and its preview warns.)
func TestGateRulesForwardMeetsTheGate(t *testing.T) {
	for _, c := range gateCases {
		if c.rc == mqfmt.RCNotAuthorized {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			f := newOpFixture(t, gateScript)
			dest := f.arrange(c)
			for _, action := range []string{"ACTION(FWD) FWDQ(" + dest + ") HEADER(NO)", "ACTION(RETRY) RETRY(1)"} {
				tab, err := dlqrules.Parse(strings.NewReader("INPUTQ(QM1.DEADQ) WAIT(NO)\n" + action + "\n"))
				if err != nil {
					t.Fatal(err)
				}
				res, err := dlqrules.Run(f.ctx, dlqrules.Source{Conn: f.conn(), Engine: f.engine()}, tab, dlqrules.RunOptions{Once: true, Sleep: f.clk.Sleep})
				if err != nil && res == nil {
					t.Fatalf("%s: %v", action, err)
				}
				said, rc := "", int32(0)
				for _, st := range res.Steps {
					for _, it := range st.Result.Items {
						said, rc = it.Text(st.Result.Plan.Request.Op), it.Reason
					}
				}
				if res.Done != 0 || c.skip != "" && !strings.Contains(said, c.skip) || c.reason != 0 && rc != int32(c.reason) {
					t.Fatalf("%s: done %d, said %q (reason %d), want %q / reason %d", action, res.Done, said, rc, c.skip, c.reason)
				}
			}
			if n := f.depth("QM1.DEADQ"); n != 1 {
				t.Fatalf("the DEADQ holds %d messages, want its 1 untouched", n)
			}
		})
	}
}

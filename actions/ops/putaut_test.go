package ops_test

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// putautScript: the operator "op" may read the DEADQ, set context on the
// input queues and use alternate user authority; alice may put to
// ORDERS.IN, bob to nothing.
const putautScript = `
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('op') AUTHADD(CONNECT,INQ,SETALL,ALTUSR)
SET AUTHREC PROFILE('QM1.DEADQ') OBJTYPE(QUEUE) PRINCIPAL('op') AUTHADD(GET,BROWSE,INQ,DSP)
SET AUTHREC PROFILE('*.IN') OBJTYPE(QUEUE) PRINCIPAL('op') AUTHADD(PUT,SETALL,INQ,DSP)
SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) PRINCIPAL('op') AUTHADD(INQ,DSP)
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('alice') AUTHADD(CONNECT)
SET AUTHREC PROFILE('ORDERS.IN') OBJTYPE(QUEUE) PRINCIPAL('alice') AUTHADD(PUT)
`

// deadLetterAs dead-letters message n for destQ with reason rc, sent by user.
func (f *opFixture) deadLetterAs(c mqwatch.Conn, n int, user, destQ string, rc mqfmt.Reason) {
	f.t.Helper()
	md, data := original(n)
	md.UserIdentifier = user
	dmd, ddata, err := actions.ToDeadLetter(md, data, actions.DeadLetterOptions{Reason: rc, DestQName: destQ,
		DestQMgrName: "QM1", PutApplType: mqfmt.ATUnix, PutApplName: "amqrmppa", Now: f.clk.Now()})
	if err != nil {
		f.t.Fatal(err)
	}
	f.putSetAll(c, "QM1.DEADQ", dmd, ddata)
}

// Dead letters refused by security (2035) stay refused: a requeue skips
// them unless the operator says with whose authority; PUTAUT(CTX) puts each
// with its own user's authority and explains the setmqaut a refusal needs.
func TestR10b_DeadLettersRefusedBySecurityStayRefused(t *testing.T) {
	setup := func(t *testing.T) *opFixture {
		f := newOpFixture(t, putautScript)
		c := f.conn()
		f.deadLetterAs(c, 1, "alice", "ORDERS.IN", mqfmt.RCNotAuthorized)
		f.deadLetterAs(c, 2, "bob", "PAYMENTS.IN", mqfmt.RCNotAuthorized)
		f.deadLetterAs(c, 3, "bob", "PAYMENTS.IN", mqfmt.RCQFull)
		return f
	}
	asOp := func(o *ops.EngineOptions) { o.Connect = mqwatch.ConnectOptions{User: "op"} }
	t.Run("skipped_by_default_with_a_warning", func(t *testing.T) {
		f := setup(t)
		res, _ := f.engine(asOp).Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true}, nil)
		if res.Done != 1 || res.Skipped != 2 || !strings.Contains(strings.Join(res.Plan.Warnings, "\n"), "2 dead letters were refused by security") {
			t.Fatalf("done %d skipped %d warnings %q", res.Done, res.Skipped, res.Plan.Warnings)
		}
		if o := res.Items[0].Text(res.Plan.Request.Op); !strings.Contains(o, "--putaut ctx") {
			t.Errorf("outcome %q", o)
		}
		wantDepths(t, f, map[string]int{"QM1.DEADQ": 2, "PAYMENTS.IN": 1, "ORDERS.IN": 0})
	})
	t.Run("def_requeues_them_with_the_operators_authority", func(t *testing.T) {
		f := setup(t)
		res, _ := f.engine(asOp).Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true,
			PutAuthority: ops.PutAuthOperator}, nil)
		if res.Done != 3 {
			t.Fatalf("done %d: %+v", res.Done, res.Items)
		}
	})
	t.Run("ctx_puts_with_each_messages_user", func(t *testing.T) {
		f := setup(t)
		before := f.browse("QM1.DEADQ")
		res, _ := f.engine(asOp).Run(f.ctx, ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true,
			PutAuthority: ops.PutAuthContext, Workers: 1}, nil)
		if res.Done != 1 || res.Failed != 2 {
			t.Fatalf("done %d failed %d: %+v", res.Done, res.Failed, res.Items)
		}
		if o := res.Items[1].Text(res.Plan.Request.Op); !strings.Contains(o, "MQRC_NOT_AUTHORIZED") || !strings.Contains(o, "setmqaut -m QMGR -n PAYMENTS.IN -t queue -p bob +put") ||
			!strings.Contains(o, "+altusr") {
			t.Errorf("outcome %q: want the setmqaut it needs", o)
		}
		wantDepths(t, f, map[string]int{"ORDERS.IN": 1, "PAYMENTS.IN": 0, "QM1.DEADQ": 2})
		checkUntouched(t, before, f.browse("QM1.DEADQ"))
	})
}

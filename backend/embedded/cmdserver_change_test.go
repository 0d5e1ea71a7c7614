package embedded_test

import (
	"context"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// changeQM is a queue manager with a full BOQ, a user who may change it
// but create nothing, and its command server running.
func changeQM(t *testing.T) *embeddedtest.QM {
	t.Helper()
	return embeddedtest.New(t, embeddedtest.Options{Name: "QM1", ProcessUser: "mqm", CommandServer: true, MQSC: `
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(0)
DEFINE QLOCAL(ORDERS.BO) MAXDEPTH(40) MAXMSGL(1000)
DEFINE QALIAS(ORDERS.A) TARGET(ORDERS.IN)
SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('op') AUTHADD(CONNECT,INQ,DSP)
SET AUTHREC PROFILE(ORDERS.BO) OBJTYPE(QUEUE) PRINCIPAL('op') AUTHADD(CHG,DSP)
SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('op') AUTHADD(PUT)
SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('op') AUTHADD(GET,INQ,DSP)
`})
}

func applyAs(t *testing.T, qm mqwatch.Connector, user string, ch pcf.Change) error {
	t.Helper()
	ctx := context.Background()
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{User: user})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pt, err := pcf.OpenPort(ctx, c, pcf.DefaultCommandQueue, pcf.DefaultReplyModel)
	if err != nil {
		t.Fatal(err)
	}
	defer pt.Close(ctx)
	return (&pcf.Client{T: pt, Wait: 2 * time.Second}).Apply(ctx, ch)
}

func queueInfo(t *testing.T, qm mqwatch.Connector, name string) (mqwatch.QueueInfo, bool) {
	t.Helper()
	c, err := qm.Connect(context.Background(), mqwatch.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	qs, _ := c.Queues(context.Background(), name)
	if len(qs) == 0 {
		return mqwatch.QueueInfo{}, false
	}
	return qs[0], true
}

// TestCommandServerAppliesFixChanges: MQCMD_CHANGE_Q, MQCMD_COPY_Q,
// MQCMD_CREATE_Q and MQCMD_CHANGE_Q_MGR change exactly their attributes, with
// the reasons and the authority IBM's command server answers with.
func TestCommandServerAppliesFixChanges(t *testing.T) {
	local := func(cmd int32, q string, attrs ...pcf.Attr) pcf.Change {
		return pcf.Change{Command: cmd, Queue: q, Type: mqwatch.QLocal, Attrs: attrs}
	}
	tests := []struct {
		name  string
		user  string
		ch    pcf.Change
		rc    mqfmt.Reason // 0: applied
		check func(*testing.T, mqwatch.Connector)
	}{
		{"R8b_change_MAXDEPTH_with_chg", "op", local(pcf.CmdChangeQ, "ORDERS.BO", pcf.Attr{Keyword: "MAXDEPTH", Value: "5000"}), 0, func(t *testing.T, qm mqwatch.Connector) {
			if q, _ := queueInfo(t, qm, "ORDERS.BO"); q.MaxDepth != 5000 || q.MaxMsgLen != 1000 {
				t.Errorf("ORDERS.BO MAXDEPTH %d MAXMSGL %d, want 5000 and MAXMSGL untouched", q.MaxDepth, q.MaxMsgLen)
			}
		}},
		{"R1c_change_without_chg_is_2035", "op", local(pcf.CmdChangeQ, "ORDERS.IN", pcf.Attr{Keyword: "BOTHRESH", Value: "3"}), mqfmt.RCNotAuthorized, func(t *testing.T, qm mqwatch.Connector) {
			if q, _ := queueInfo(t, qm, "ORDERS.IN"); q.BackoutThresh != 0 {
				t.Errorf("BOTHRESH %d changed without authority", q.BackoutThresh)
			}
		}},
		{"R1c_change_BOTHRESH_BOQNAME_HARDENBO_as_admin", "", local(pcf.CmdChangeQ, "ORDERS.IN", pcf.Attr{Keyword: "BOTHRESH", Value: "3"},
			pcf.Attr{Keyword: "BOQNAME", Value: "ORDERS.BO"}, pcf.Attr{Keyword: "HARDENBO", Value: "YES"}), 0, func(t *testing.T, qm mqwatch.Connector) {
			if q, _ := queueInfo(t, qm, "ORDERS.IN"); q.BackoutThresh != 3 || q.BackoutQName != "ORDERS.BO" || !q.HardenBackout {
				t.Errorf("ORDERS.IN %+v", q)
			}
		}},
		{"R8c_GET_DISABLED", "", local(pcf.CmdChangeQ, "ORDERS.IN", pcf.Attr{Keyword: "GET", Value: "DISABLED"}), 0, func(t *testing.T, qm mqwatch.Connector) {
			if q, _ := queueInfo(t, qm, "ORDERS.IN"); !q.InhibitGet || q.InhibitPut {
				t.Errorf("GET %v PUT %v", q.InhibitGet, q.InhibitPut)
			}
		}},
		{"unknown_queue_is_2085", "", local(pcf.CmdChangeQ, "NO.SUCH", pcf.Attr{Keyword: "MAXDEPTH", Value: "1"}), mqfmt.RCUnknownObjectName, nil},
		{"wrong_type_is_4002", "", local(pcf.CmdChangeQ, "ORDERS.A", pcf.Attr{Keyword: "PUT", Value: "ENABLED"}), pcf.ReasonObjectWrongType, nil},
		{"create_existing_is_4001", "", local(pcf.CmdCreateQ, "ORDERS.BO"), pcf.ReasonObjectAlreadyExists, nil},
		{"create_without_crt_is_2035", "op", local(pcf.CmdCreateQ, "PAY.BO"), mqfmt.RCNotAuthorized, func(t *testing.T, qm mqwatch.Connector) {
			if _, ok := queueInfo(t, qm, "PAY.BO"); ok {
				t.Error("created without crt")
			}
		}},
		{"R8b_copy_LIKE_keeps_the_model_and_overrides", "", pcf.Change{Command: pcf.CmdCopyQ, Queue: "PAY.BO", Like: "ORDERS.BO", Type: mqwatch.QLocal,
			Attrs: []pcf.Attr{{Keyword: "MAXDEPTH", Value: "7000"}}}, 0, func(t *testing.T, qm mqwatch.Connector) {
			if q, ok := queueInfo(t, qm, "PAY.BO"); !ok || q.MaxDepth != 7000 || q.MaxMsgLen != 1000 {
				t.Errorf("PAY.BO %+v (exists %v): want MAXDEPTH 7000 and ORDERS.BO's MAXMSGL", q, ok)
			}
		}},
		{"R8a_change_qmgr_DEADQ", "", pcf.Change{Command: pcf.CmdChangeQMgr, Attrs: []pcf.Attr{{Keyword: "DEADQ", Value: "ORDERS.BO"}}}, 0, func(t *testing.T, qm mqwatch.Connector) {
			c, _ := qm.Connect(context.Background(), mqwatch.ConnectOptions{})
			defer c.Close()
			if info, err := c.QMgr(context.Background()); err != nil || info.DeadQ != "ORDERS.BO" {
				t.Errorf("DEADQ %q (%v)", info.DeadQ, err)
			}
		}},
		{"R8a_change_qmgr_without_chg_is_2035", "op", pcf.Change{Command: pcf.CmdChangeQMgr, Attrs: []pcf.Attr{{Keyword: "MAXMSGL", Value: "4194340"}}}, mqfmt.RCNotAuthorized, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qm := changeQM(t)
			err := applyAs(t, qm, tt.user, tt.ch)
			if got := mqwatch.ReasonOf(err); got != tt.rc {
				t.Fatalf("reason %d (%v), want %d", got, err, tt.rc)
			}
			if tt.check != nil {
				tt.check(t, qm)
			}
		})
	}
}

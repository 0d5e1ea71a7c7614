package pcf_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// The PCF path end to end: the client sends its commands through a port
// connection to the embedded queue manager's command server, which answers
// in IBM's layout, and the answers must equal what the embedded backend
// reports directly.

type e2e struct {
	qm     *embeddedtest.QM
	srv    *embedded.CommandServer
	direct mqwatch.Conn
	viaPCF mqwatch.Conn
	ctx    context.Context
}

func newE2E(t *testing.T, mqsc string) *e2e {
	t.Helper()
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", Now: embeddedtest.At(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)),
		ProcessUser: "mqm", MQSC: mqsc, CommandServer: true})
	ctx := context.Background()
	f := &e2e{qm: qm, srv: qm.Server, ctx: ctx, direct: qm.Conn(mqwatch.ConnectOptions{ApplName: "direct"})}
	via := &pcf.Connector{Connector: qm, Wait: 2 * time.Second, Loc: time.UTC}
	var err error
	if f.viaPCF, err = via.Connect(ctx, mqwatch.ConnectOptions{ApplName: "poisonwatch"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.viaPCF.Close() })
	return f
}

const ordersMQSC = `
ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO) MONQ(MEDIUM)
DEFINE QLOCAL(ORDERS.BO)
DEFINE QLOCAL(PAYMENTS.IN)
DEFINE QALIAS(ORDERS.ALIAS) TARGET(ORDERS.IN)
`

func TestPCFQueuesEqualTheDirectAnswer(t *testing.T) {
	f := newE2E(t, ordersMQSC)
	want, err := f.direct.Queues(f.ctx, "ORDERS.*")
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.viaPCF.Queues(f.ctx, "ORDERS.*")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("via PCF: %v\n%+v\nwant %+v", err, got, want)
	}
	wantSt, _ := f.direct.QueueStatus(f.ctx, "ORDERS.*")
	gotSt, err := f.viaPCF.QueueStatus(f.ctx, "ORDERS.*")
	if err != nil || !reflect.DeepEqual(gotSt, wantSt) {
		t.Errorf("status via PCF: %v\n%+v\nwant %+v", err, gotSt, wantSt)
	}
}

func TestPCFHandlesEqualTheDirectAnswer(t *testing.T) {
	f := newE2E(t, ordersMQSC)
	app, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{ApplName: "orders-mdb"})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	q, err := app.Open(f.ctx, mqwatch.ObjectDesc{Name: "ORDERS.IN"}, mqwatch.OpenOptions{Input: true, Output: true, Browse: true})
	if err != nil {
		t.Fatal(err)
	}
	md := mqfmt.NewMQMD()
	if err := q.Put(f.ctx, &md, []byte("x"), mqwatch.PutOptions{Syncpoint: true}); err != nil {
		t.Fatal(err)
	}
	want, _ := f.direct.Handles(f.ctx, "ORDERS.IN")
	got, err := f.viaPCF.Handles(f.ctx, "ORDERS.IN")
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("via PCF: %v\n%+v\nwant %+v", err, got, want)
	}
	if len(got) != 1 || !got[0].UOW || got[0].ConnID == "" || !got[0].Input || !got[0].Output || !got[0].Browse {
		t.Errorf("handle of a connection with a unit of work: %+v", got)
	}
}

// TestPCFKeepsGoodItemsWhenOneObjectFails is defect 1: one queue deleted
// while DISPLAY QUEUE(*) ran (2085), one damaged (2101), must not empty the
// answer; each is reported on its object.
func TestPCFKeepsGoodItemsWhenOneObjectFails(t *testing.T) {
	f := newE2E(t, ordersMQSC)
	f.srv.FailObject("ORDERS.BO", mqfmt.RCObjectDamaged)
	f.srv.FailObject("ORDERS.TEMP.1", mqfmt.RCUnknownObjectName)
	got, err := f.viaPCF.Queues(f.ctx, "ORDERS.*")
	objs, rest := mqwatch.SplitPartial(err)
	if rest != nil || len(got) != 2 || got[0].Name != "ORDERS.ALIAS" || got[1].Name != "ORDERS.IN" {
		t.Fatalf("got %+v, %v", got, err)
	}
	if len(objs) != 2 || objs[0].Object != "ORDERS.BO" || !mqwatch.IsReason(objs[0].Err, mqfmt.RCObjectDamaged) ||
		objs[1].Object != "ORDERS.TEMP.1" || !mqwatch.IsReason(objs[1].Err, mqfmt.RCUnknownObjectName) {
		t.Errorf("per-object failures: %+v", objs)
	}
	st, err := f.viaPCF.QueueStatus(f.ctx, "*")
	if objs, rest := mqwatch.SplitPartial(err); rest != nil || len(objs) != 2 || len(st) == 0 {
		t.Errorf("status: %d items, %v", len(st), err)
	}
}

// TestPCFSpecificFailureStaysAnError: a failure of the only object asked for
// is the command's failure.
func TestPCFSpecificFailureStaysAnError(t *testing.T) {
	f := newE2E(t, ordersMQSC)
	if _, err := f.viaPCF.Queues(f.ctx, "NO.SUCH.QUEUE"); !mqwatch.IsReason(err, mqfmt.RCUnknownObjectName) {
		t.Errorf("unknown specific queue: %v", err)
	}
	if qs, err := f.viaPCF.Queues(f.ctx, "NOTHING.*"); err != nil || len(qs) != 0 {
		t.Errorf("generic name matching nothing: %v %v", qs, err)
	}
	f.srv.FailObject("PAYMENTS.IN", mqfmt.RCNotAuthorized)
	if _, err := f.viaPCF.Queues(f.ctx, "PAYMENTS.*"); !mqwatch.IsReason(err, mqfmt.RCNotAuthorized) {
		t.Errorf("the only queue failing: %v", err)
	}
}

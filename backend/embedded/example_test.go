package embedded_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// A queue manager configured with MQSC, a poison message rolled back twice,
// and what queue status then shows.
func Example() {
	qm := embedded.New(embedded.Options{Name: "QM1"})
	rep, err := qm.RunMQSC(strings.NewReader(`
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO) MONQ(MEDIUM)
DEFINE QLOCAL(ORDERS.BO)
DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)
`))
	if err != nil {
		panic(err)
	}
	fmt.Println(len(rep.Results), "commands,", len(rep.NotModelled()), "not modelled")

	ctx := context.Background()
	c, _ := qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: "orders-consumer"})
	defer c.Close()
	q, _ := c.Open(ctx, mqwatch.ObjectDesc{Name: "ORDERS.IN"}, mqwatch.OpenOptions{Input: true, Output: true})
	md := mqfmt.NewMQMD()
	_ = q.Put(ctx, &md, []byte(`{"order":42}`), mqwatch.PutOptions{})
	for range 2 {
		_, _ = q.Get(ctx, mqwatch.GetOptions{Syncpoint: true})
		_ = c.Backout(ctx)
	}
	m, _ := q.Get(ctx, mqwatch.GetOptions{Syncpoint: true})
	fmt.Println("BackoutCount", m.MD.BackoutCount)
	st, _ := c.QueueStatus(ctx, "ORDERS.IN")
	fmt.Println("CURDEPTH", st[0].Depth, "UNCOM", st[0].Uncommitted, "IPPROCS", st[0].OpenInput)
	// Output:
	// 3 commands, 1 not modelled
	// BackoutCount 2
	// CURDEPTH 0 UNCOM 1 IPPROCS 1
}

package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// startDemo is replaced by the demo package's scenarios.
func startDemo(ctx context.Context, scenario string) (*backend, error) {
	qm := embedded.New(embedded.Options{Name: "QM1"})
	_, err := qm.RunMQSC(strings.NewReader(`
DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(50000) MONQ(MEDIUM)
ALTER QMGR DEADQ(QM1.DEADQ) MONQ(MEDIUM)
DEFINE QLOCAL(ORDERS.BO) MAXDEPTH(100)
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(0) MAXDEPTH(10000)
DEFINE QLOCAL(PAYMENTS.BO)
DEFINE QLOCAL(PAYMENTS.IN) BOTHRESH(5) BOQNAME(PAYMENTS.BO)
DEFINE QLOCAL(AUDIT.IN)
`))
	if err != nil {
		return nil, err
	}
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: "seed"})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	putN := func(queue string, n int, mk func(i int) (mqfmt.MQMD, []byte)) {
		q, _ := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Output: true})
		for i := 0; i < n; i++ {
			md, d := mk(i)
			_ = q.Put(ctx, &md, d, mqwatch.PutOptions{NewMsgId: true})
		}
		q.Close(ctx)
	}
	dl := func(reason mqfmt.Reason, dest string) func(int) (mqfmt.MQMD, []byte) {
		return func(i int) (mqfmt.MQMD, []byte) {
			md := mqfmt.NewMQMD()
			md.Format, md.CodedCharSetId = mqfmt.FmtDeadLetter, 1208
			h := mqfmt.NewDLH()
			h.Reason, h.DestQName, h.DestQMgrName, h.Format, h.Encoding, h.CodedCharSetId, h.PutApplName = reason, dest, "QM2", mqfmt.FmtString, mqfmt.EncodingNative, 1208, "amqrmppa"
			bo, _ := mqfmt.EncodingNative.ByteOrder()
			return md, append(h.AppendEncode(nil, bo), fmt.Sprintf(`{"invoice":%d,"amount":12.5}`, i)...)
		}
	}
	putN("QM1.DEADQ", 290, dl(mqfmt.RCUnknownObjectName, "INVOICE.IN"))
	putN("QM1.DEADQ", 10, dl(mqfmt.RCQFull, "AUDIT.IN"))
	putN("ORDERS.IN", 20, func(i int) (mqfmt.MQMD, []byte) {
		md := mqfmt.NewMQMD()
		md.Format = mqfmt.FmtString
		return md, []byte(fmt.Sprintf("order %d", i))
	})
	return &backend{qmgrs: []qmgrConn{{name: qm.Name(), conn: qm}}, stop: func() {}}, nil
}

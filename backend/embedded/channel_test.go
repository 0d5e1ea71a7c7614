package embedded

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// dlh is the MQDLH fields a test reads back.
type dlh struct {
	reason           int32
	destQ, destQMgr  string
	encoding, ccsid  int32
	format, applName string
	applType         int32
}

func decodeDLH(t *testing.T, b []byte) dlh {
	t.Helper()
	if len(b) < 172 || string(b[:4]) != "DLH " || binary.LittleEndian.Uint32(b[4:]) != 1 {
		t.Fatalf("not an MQDLH version 1: % x", b[:min(len(b), 8)])
	}
	le := binary.LittleEndian
	return dlh{
		reason: int32(le.Uint32(b[8:])), destQ: mqfmt.Trim(string(b[12:60])), destQMgr: mqfmt.Trim(string(b[60:108])),
		encoding: int32(le.Uint32(b[108:])), ccsid: int32(le.Uint32(b[112:])), format: string(b[116:124]),
		applType: int32(le.Uint32(b[124:])), applName: mqfmt.Trim(string(b[128:156])),
	}
}

func linkedPair(t *testing.T, qm2Script string) (*fixture, *fixture, *Network) {
	t.Helper()
	f1 := newFixture(t, `DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QREMOTE(INVOICE.OUT) RNAME(INVOICE.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE QREMOTE(INVOICE.TYPO) RNAME(INVOCE.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE QREMOTE(AUDIT.OUT) RNAME(AUDIT.IN) RQMNAME(QM2) XMITQ(QM2)`)
	clk := newClock()
	qm2 := New(Options{Name: "QM2", Now: clk.Now, ProcessUser: "mqm", ChannelRetry: 10 * time.Millisecond})
	if _, err := qm2.RunMQSC(strings.NewReader(qm2Script)); err != nil {
		t.Fatal(err)
	}
	f2 := &fixture{t: t, qm: qm2, clk: clk, ctx: context.Background()}
	n := Link(f1.qm, qm2)
	t.Cleanup(func() {
		n.Close()
		goleak.VerifyNone(t)
	})
	return f1, f2, n
}

func flush(t *testing.T, n *Network) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := n.Flush(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestChannelDeliversToTheRemoteQueue(t *testing.T) {
	f1, f2, n := linkedPair(t, "DEFINE QLOCAL(INVOICE.IN)\nDEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ)")
	sent := f1.put(f1.open(f1.connect(""), "INVOICE.OUT", outOnly), "invoice 1", 4, false)
	flush(t, n)
	m, err := f2.open(f2.connect(""), "INVOICE.IN", browseIn).Get(f2.ctx, mqwatch.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if string(m.Data) != "invoice 1" || m.MD.MsgId != sent.MsgId || m.MD.Priority != 4 ||
		m.MD.PutApplName != sent.PutApplName || m.MD.Format != mqfmt.FmtString {
		t.Fatalf("delivered %q MsgId %x prio %d appl %q format %q", m.Data, m.MD.MsgId, m.MD.Priority, m.MD.PutApplName, m.MD.Format)
	}
	if f1.status("QM2").Depth != 0 {
		t.Fatal("transmission queue not emptied")
	}
}

func TestChannelDeadLettersWhatItCannotDeliver(t *testing.T) {
	tests := []struct {
		name   string
		via    string
		dest   string
		reason mqfmt.Reason
	}{
		{"unknown destination queue", "INVOICE.TYPO", "INVOCE.IN", mqfmt.RCUnknownObjectName},
		{"destination queue full", "AUDIT.OUT", "AUDIT.IN", mqfmt.RCQFull},
		{"destination queue put-inhibited", "INVOICE.OUT", "INVOICE.IN", mqfmt.RCPutInhibited},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f1, f2, n := linkedPair(t, `DEFINE QLOCAL(INVOICE.IN) PUT(DISABLED)
DEFINE QLOCAL(AUDIT.IN) MAXDEPTH(0)
DEFINE QLOCAL(DLQ)
ALTER QMGR DEADQ(DLQ)`)
			sent := f1.put(f1.open(f1.connect(""), tt.via, outOnly), "payload", 0, false)
			flush(t, n)
			m, err := f2.open(f2.connect(""), "DLQ", browseIn).Get(f2.ctx, mqwatch.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if m.MD.Format != mqfmt.FmtDeadLetter || m.MD.MsgId != sent.MsgId || m.MD.BackoutCount != 0 {
				t.Fatalf("DLQ MQMD Format %q MsgId %x BackoutCount %d", m.MD.Format, m.MD.MsgId, m.MD.BackoutCount)
			}
			d := decodeDLH(t, m.Data)
			want := dlh{reason: int32(tt.reason), destQ: tt.dest, destQMgr: "QM2", encoding: 546, ccsid: 1208,
				format: mqfmt.FmtString, applType: mqfmt.ATUnix, applName: "amqrmppa"}
			if d != want {
				t.Fatalf("MQDLH %+v\nwant  %+v", d, want)
			}
			if string(m.Data[172:]) != "payload" {
				t.Fatalf("data after MQDLH %q", m.Data[172:])
			}
		})
	}
}

func TestChannelWithoutDeadLetterQueueKeepsTheMessageAndRetries(t *testing.T) {
	f1, f2, n := linkedPair(t, "DEFINE QLOCAL(DLQ)")
	f1.put(f1.open(f1.connect(""), "INVOICE.TYPO", outOnly), "stuck", 0, false)
	flush(t, n)
	st := f1.status("QM2")
	if st.Depth != 1 {
		t.Fatalf("transmission queue depth %d, want the message kept", st.Depth)
	}
	if _, err := f2.qm.RunMQSC(strings.NewReader("ALTER QMGR DEADQ(DLQ)")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for f2.status("DLQ").Depth == 0 {
		if time.Now().After(deadline) {
			t.Fatal("retry never dead-lettered the message")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if f1.status("QM2").Depth != 0 {
		t.Fatal("message still on the transmission queue")
	}
}

package embedded

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

const routingScript = `DEFINE QLOCAL(ORDERS.IN) DEFPRTY(2)
DEFINE QALIAS(ORDERS) TARGET(ORDERS.IN) DEFPRTY(6) DESCR('alias')
DEFINE QLOCAL(QM2) USAGE(XMITQ)
DEFINE QLOCAL(NOTX)
DEFINE QREMOTE(INVOICE.OUT) RNAME(INVOICE.IN) RQMNAME(QM2) XMITQ(QM2)
DEFINE QREMOTE(VIA.NOTX) RNAME(X) RQMNAME(QM3) XMITQ(NOTX)
DEFINE QREMOTE(LOOPBACK) RNAME(ORDERS.IN) RQMNAME(QM1)
DEFINE QALIAS(TO.REMOTE) TARGET(INVOICE.OUT)
DEFINE QALIAS(QM5) TARGET(ORDERS.IN)`

func TestAliasResolvesToItsBaseQueue(t *testing.T) {
	f := newFixture(t, routingScript)
	c := f.connect("")
	alias := f.open(c, "ORDERS", mqwatch.OpenOptions{Output: true, Inquire: true})
	md := f.put(alias, "via alias", -1, false)
	if md.Priority != 6 {
		t.Errorf("priority %d, want the alias's DEFPRTY 6 (first definition in the path)", md.Priority)
	}
	if got := f.get(f.open(c, "ORDERS.IN", browseIn), mqwatch.GetOptions{}); got != "via alias" {
		t.Fatalf("base queue got %q", got)
	}
	qi, err := alias.Inquire(f.ctx)
	if err != nil || qi.Type != mqwatch.QAlias || qi.Target != "ORDERS.IN" || qi.Description != "alias" {
		t.Fatalf("Inquire on the alias = %+v, %v", qi, err)
	}
	if st := f.status("ORDERS.IN"); st.OpenOutput != 1 {
		t.Fatalf("OPPROCS of the base queue %d, want the alias handle counted", st.OpenOutput)
	}
}

// decodeXQH reads the transmission header the queue manager wrote.
func decodeXQH(t *testing.T, data []byte) (rq, rqm string, inner mqfmt.MQMD) {
	t.Helper()
	x, err := unwrapXmit(data, 1208)
	if err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint32(data[4:]) != 1 {
		t.Fatal("MQXQH Version is not 1")
	}
	return x.remoteQ, x.remoteQMgr, x.md
}

func TestRemoteQueueDefinitionPutsToTheTransmissionQueue(t *testing.T) {
	f := newFixture(t, routingScript)
	c := f.connect("")
	for _, name := range []string{"INVOICE.OUT", "TO.REMOTE"} {
		t.Run(name, func(t *testing.T) {
			q := f.open(c, name, outOnly)
			sent := f.put(q, "invoice 42", 0, false)
			m, err := f.open(c, "QM2", browseIn).Get(f.ctx, mqwatch.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if m.MD.Format != mqfmt.FmtXmitQHeader || m.MD.Encoding != mqfmt.EncodingNative || len(m.Data) != 428+10 {
				t.Fatalf("xmit message Format %q Encoding %d length %d", m.MD.Format, m.MD.Encoding, len(m.Data))
			}
			if string(m.Data[:4]) != "XQH " {
				t.Fatalf("StrucId %q", m.Data[:4])
			}
			rq, rqm, inner := decodeXQH(t, m.Data)
			if rq != "INVOICE.IN" || rqm != "QM2" || inner.MsgId != sent.MsgId || inner.Format != mqfmt.FmtString {
				t.Fatalf("XQH %q %q inner MsgId %x Format %q", rq, rqm, inner.MsgId, inner.Format)
			}
			if string(m.Data[428:]) != "invoice 42" {
				t.Fatalf("data after XQH %q", m.Data[428:])
			}
		})
	}
}

func TestObjectQMgrNameRouting(t *testing.T) {
	f := newFixture(t, routingScript)
	c := f.connect("")
	tests := []struct {
		name string
		od   mqwatch.ObjectDesc
		opts mqwatch.OpenOptions
		rc   mqfmt.Reason
	}{
		{"another queue manager with a transmission queue of its name", mqwatch.ObjectDesc{Name: "INVOICE.IN", QMgr: "QM2"}, outOnly, 0},
		{"another queue manager without a transmission queue fails 2087", mqwatch.ObjectDesc{Name: "X", QMgr: "QM9"}, outOnly, mqfmt.RCUnknownRemoteQMgr},
		{"a queue named like the queue manager but not USAGE(XMITQ) fails 2092", mqwatch.ObjectDesc{Name: "X", QMgr: "NOTX"}, outOnly, rcXmitQUsageError},
		{"a queue manager name that is not a local queue fails 2091", mqwatch.ObjectDesc{Name: "X", QMgr: "QM5"}, outOnly, rcXmitQTypeError},
		{"a remote definition through a normal queue fails 2092", mqwatch.ObjectDesc{Name: "VIA.NOTX"}, outOnly, rcXmitQUsageError},
		{"the local queue manager's own name resolves locally", mqwatch.ObjectDesc{Name: "ORDERS.IN", QMgr: "QM1"}, browseIn, 0},
		{"input from a remote queue is not allowed", mqwatch.ObjectDesc{Name: "INVOICE.OUT"}, browseIn, rcOptionNotValidForType},
		{"a remote definition naming this queue manager resolves locally", mqwatch.ObjectDesc{Name: "LOOPBACK"}, outOnly, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := c.Open(f.ctx, tt.od, tt.opts)
			if tt.rc != 0 {
				wantRC(t, err, tt.rc)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_ = q.Close(f.ctx)
		})
	}
	q, _ := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "INVOICE.IN", QMgr: "QM2"}, outOnly)
	f.put(q, "routed", 0, false)
	m, _ := f.open(c, "QM2", browseIn).Get(f.ctx, mqwatch.GetOptions{})
	if rq, rqm, _ := decodeXQH(t, m.Data); rq != "INVOICE.IN" || rqm != "QM2" {
		t.Fatalf("XQH names %q on %q", rq, rqm)
	}
}

func TestModelQueuesCreateDynamicQueues(t *testing.T) {
	f := newFixture(t, "DEFINE QMODEL(TMP.MODEL) MAXDEPTH(7)\nDEFINE QMODEL(PERM.MODEL) DEFTYPE(PERMDYN)")
	c := f.connect("")
	t.Run("temporary dynamic queue is deleted when its creator closes it", func(t *testing.T) {
		q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "TMP.MODEL", DynamicName: "REPLY.*"}, inOut)
		if err != nil {
			t.Fatal(err)
		}
		name := q.Name()
		if !strings.HasPrefix(name, "REPLY.") || len(name) != len("REPLY.")+16 {
			t.Fatalf("dynamic name %q", name)
		}
		info := f.qm.queues[name].info()
		if info.Type != mqwatch.QLocal || info.DefType != mqwatch.TemporaryDynamic || info.MaxDepth != 7 {
			t.Fatalf("dynamic queue %+v", info)
		}
		md := mqfmt.NewMQMD()
		md.Persistence = mqfmt.PerPersistent
		wantRC(t, q.Put(f.ctx, &md, nil, mqwatch.PutOptions{}), mqfmt.RCPersistentNotAllowed)
		other := f.open(f.connect(""), name, outOnly)
		if err := q.Close(f.ctx); err != nil {
			t.Fatal(err)
		}
		if f.qm.queues[name] != nil {
			t.Fatal("temporary dynamic queue still defined")
		}
		md = mqfmt.NewMQMD()
		wantRC(t, other.Put(f.ctx, &md, nil, mqwatch.PutOptions{}), rcQDeleted)
	})
	t.Run("permanent dynamic queue outlives its creator", func(t *testing.T) {
		q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "PERM.MODEL", DynamicName: "KEEP.ME"}, inOut)
		if err != nil || q.Name() != "KEEP.ME" {
			t.Fatalf("%v %v", q, err)
		}
		_ = q.Close(f.ctx)
		if f.qm.queues["KEEP.ME"] == nil {
			t.Fatal("permanent dynamic queue deleted")
		}
		_, err = c.Open(f.ctx, mqwatch.ObjectDesc{Name: "PERM.MODEL", DynamicName: "KEEP.ME"}, inOut)
		wantRC(t, err, rcObjectAlreadyExists)
	})
	t.Run("closing the connection deletes its temporary dynamic queues", func(t *testing.T) {
		c2 := f.connect("")
		q, _ := c2.Open(f.ctx, mqwatch.ObjectDesc{Name: "TMP.MODEL"}, inOut)
		if !strings.HasPrefix(q.Name(), "AMQ.") {
			t.Fatalf("default dynamic name %q", q.Name())
		}
		_ = c2.Close()
		if f.qm.queues[q.Name()] != nil {
			t.Fatal("queue survived its connection")
		}
	})
}

func TestDefaultTransmissionQueue(t *testing.T) {
	tests := []struct {
		name   string
		defx   string
		rc     mqfmt.Reason
		onXmit string
	}{
		{"unknown queue managers route through DEFXMITQ", "QM2", 0, "QM2"},
		{"DEFXMITQ without USAGE(XMITQ) fails 2199", "NOTX", rcDefXmitQUsageError, ""},
		{"DEFXMITQ naming a missing queue fails 2197", "GONE", rcUnknownDefXmitQ, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, routingScript+"\nALTER QMGR DEFXMITQ("+tt.defx+")")
			c := f.connect("")
			q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "PAYROLL.IN", QMgr: "QM7"}, outOnly)
			if tt.rc != 0 {
				wantRC(t, err, tt.rc)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f.put(q, "pay", 0, false)
			m, _ := f.open(c, tt.onXmit, browseIn).Get(f.ctx, mqwatch.GetOptions{})
			if rq, rqm, _ := decodeXQH(t, m.Data); rq != "PAYROLL.IN" || rqm != "QM7" {
				t.Fatalf("XQH names %q on %q", rq, rqm)
			}
		})
	}
}

func TestQueueManagerAliasWithBlankRNAME(t *testing.T) {
	f := newFixture(t, routingScript+`
DEFINE QREMOTE(QM2.ALIAS) RNAME(' ') RQMNAME(QM2) XMITQ(QM2) DEFPRTY(4) DEFPSIST(YES)
DEFINE QREMOTE(HOME) RNAME(' ') RQMNAME(QM1) DEFPRTY(8)`)
	c := f.connect("")
	asDef := func() mqfmt.MQMD {
		md := mqfmt.NewMQMD()
		md.Priority, md.Persistence = -1, mqfmt.PerPersistenceAsDef
		return md
	}
	t.Run("routes to its RQMNAME with its own DEFPRTY and DEFPSIST", func(t *testing.T) {
		q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "INVOICE.IN", QMgr: "QM2.ALIAS"}, outOnly)
		if err != nil {
			t.Fatal(err)
		}
		md := asDef()
		if err := q.Put(f.ctx, &md, []byte("x"), mqwatch.PutOptions{}); err != nil || md.Priority != 4 || md.Persistence != mqfmt.PerPersistent {
			t.Fatalf("put: Priority %d Persistence %d, %v; want the alias's 4 and persistent", md.Priority, md.Persistence, err)
		}
		m, _ := f.open(c, "QM2", browseIn).Get(f.ctx, mqwatch.GetOptions{})
		if rq, rqm, inner := decodeXQH(t, m.Data); rq != "INVOICE.IN" || rqm != "QM2" || inner.Priority != 4 {
			t.Fatalf("XQH %q on %q, inner Priority %d", rq, rqm, inner.Priority)
		}
	})
	t.Run("naming this queue manager resolves locally with the alias's defaults", func(t *testing.T) {
		q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "ORDERS.IN", QMgr: "HOME"}, outOnly)
		if err != nil {
			t.Fatal(err)
		}
		md := asDef()
		if err := q.Put(f.ctx, &md, []byte("home"), mqwatch.PutOptions{}); err != nil || md.Priority != 8 {
			t.Fatalf("put: Priority %d, %v; want the alias's 8 over ORDERS.IN's 2", md.Priority, err)
		}
		if got := f.get(f.open(c, "ORDERS.IN", browseIn), mqwatch.GetOptions{}); got != "home" {
			t.Fatalf("ORDERS.IN got %q", got)
		}
	})
	t.Run("opened as a queue it fails 2184", func(t *testing.T) {
		_, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "QM2.ALIAS"}, outOnly)
		wantRC(t, err, rcRemoteQNameError)
	})
	t.Run("a remote queue definition named as a queue manager fails 2087", func(t *testing.T) {
		_, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "X", QMgr: "INVOICE.OUT"}, outOnly)
		wantRC(t, err, mqfmt.RCUnknownRemoteQMgr)
	})
}

package embedded

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func TestXmitHeaderRoundTrip(t *testing.T) {
	qm := New(Options{Name: "QM1", ProcessUser: "mqm"})
	md := mqfmt.NewMQMD()
	md.Format, md.Priority, md.PutApplName = mqfmt.FmtString, 7, padName("sender", 28)
	xmd, b := qm.wrapXmit(md, []byte("body"), "DEST.Q", "QM2")
	if len(b) != xqhLen+4 || xmd.Format != mqfmt.FmtXmitQHeader || xmd.CodedCharSetId != 1208 {
		t.Fatalf("len %d Format %q CCSID %d", len(b), xmd.Format, xmd.CodedCharSetId)
	}
	x, err := unwrapXmit(b, 1208)
	if err != nil {
		t.Fatal(err)
	}
	if x.remoteQ != "DEST.Q" || x.remoteQMgr != "QM2" || x.md.Priority != 7 || x.md.PutApplName != md.PutApplName ||
		!bytes.Equal(x.data, []byte("body")) {
		t.Fatalf("decoded %+v", x)
	}
}

func TestUnwrapXmitRejectsBadInput(t *testing.T) {
	qm := New(Options{Name: "QM1", ProcessUser: "mqm"})
	_, good := qm.wrapXmit(mqfmt.NewMQMD(), nil, "Q", "QM2")
	badMD := append([]byte(nil), good...)
	copy(badMD[104:], "XX  ")
	tests := []struct {
		name   string
		in     []byte
		offset int
		trunc  bool
	}{
		{"too short for an MQXQH", good[:100], 0, true},
		{"wrong StrucId", append([]byte("XQX "), good[4:]...), 0, false},
		{"bad MQMD inside", badMD, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := unwrapXmit(tt.in, 1208)
			var de *mqfmt.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v, want a DecodeError", err)
			}
			if errors.Is(err, mqfmt.ErrTruncated) != tt.trunc {
				t.Fatalf("err = %v, truncated %v", err, tt.trunc)
			}
		})
	}
}

func TestPutDateTime(t *testing.T) {
	d, tm := putDateTime(time.Date(2013, 1, 14, 11, 24, 16, 650_000_000, time.FixedZone("JST", 9*3600)))
	if d != "20130114" || tm != "02241665" {
		t.Fatalf("%s %s, want GMT 20130114 02241665", d, tm)
	}
}

// FuzzUnwrapXmit checks that no transmission queue message makes the decoder
// panic or read outside its input, and that accepted input re-encodes.
func FuzzUnwrapXmit(f *testing.F) {
	qm := New(Options{Name: "QM1", ProcessUser: "mqm"})
	_, b := qm.wrapXmit(mqfmt.NewMQMD(), []byte("payload"), "INVOICE.IN", "QM2")
	f.Add(b)
	f.Add(b[:427])
	f.Add([]byte("XQH "))
	f.Fuzz(func(t *testing.T, in []byte) {
		x, err := unwrapXmit(in, 1208)
		if err != nil {
			return
		}
		if len(x.data) != len(in)-xqhLen {
			t.Fatalf("data length %d from input %d", len(x.data), len(in))
		}
	})
}

func TestR10b_EBCDICQueueManagerWritesEBCDICHeaders(t *testing.T) {
	qm := New(Options{Name: "QMZOS", ProcessUser: "mqm", CCSID: 500})
	md := mqfmt.NewMQMD()
	md.Format, md.CodedCharSetId, md.Encoding = mqfmt.FmtString, 819, mqfmt.EncodingNormal
	dmd, b := qm.deadLetter(md, []byte("body"), mqfmt.RCQFull, "ORDERS.IN", "QMZOS", "amqrmppa")
	if !bytes.Equal(b[:4], []byte{0xC4, 0xD3, 0xC8, 0x40}) || dmd.CodedCharSetId != 500 {
		t.Fatalf("MQDLH StrucId % X, MQMD CCSID %d", b[:4], dmd.CodedCharSetId)
	}
	c, err := mqfmt.WalkChain(dmd.Format, dmd.Encoding, dmd.CodedCharSetId, b)
	if err != nil || mqfmt.Trim(c.DLH().DestQName) != "ORDERS.IN" || c.Body.Format != mqfmt.FmtString || c.Body.CCSID != 819 {
		t.Fatalf("chain %+v, %v", c, err)
	}
	xmd, x := qm.wrapXmit(md, []byte("body"), "DEST.Q", "QM2")
	if x[0] != 0xE7 || x[104] != 0xD4 { // "X" of XQH, "M" of the embedded MD
		t.Fatalf("MQXQH % X, embedded MQMD % X", x[:4], x[104:108])
	}
	got, err := unwrapXmit(x, xmd.CodedCharSetId)
	if err != nil || got.remoteQ != "DEST.Q" || got.remoteQMgr != "QM2" || got.md.Format != mqfmt.FmtString {
		t.Fatalf("unwrapXmit: %+v, %v", got, err)
	}
}

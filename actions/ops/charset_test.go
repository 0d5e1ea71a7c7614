package ops_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// charsetCases are the character sets and encodings of issue #11 §2: three
// EBCDIC code pages and UTF-8, each with big-endian (z/OS 785, or 273) and
// little-endian (546) integers.
func charsetCases() []struct {
	ccsid int32
	enc   mqfmt.Encoding
} {
	var out []struct {
		ccsid int32
		enc   mqfmt.Encoding
	}
	for _, c := range []int32{37, 500, 1047, 1208} {
		big := mqfmt.EncodingS390
		if c == 1208 {
			big = mqfmt.EncodingNormal
		}
		for _, e := range []mqfmt.Encoding{big, mqfmt.EncodingNative} {
			out = append(out, struct {
				ccsid int32
				enc   mqfmt.Encoding
			}{c, e})
		}
	}
	return out
}

// everyByte is a body holding each byte value once: what a requeue gives back
// must be it exactly, whatever the code page.
func everyByte() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

func TestR10b_EBCDICDeadLetterRequeue(t *testing.T) {
	for i, tc := range charsetCases() {
		t.Run(fmt.Sprintf("CCSID_%d_encoding_%d", tc.ccsid, tc.enc), func(t *testing.T) {
			f := newOpFixture(t, "")
			c := f.conn()
			md, _ := original(i + 1)
			md.CodedCharSetId, md.Encoding = tc.ccsid, tc.enc
			data := everyByte()
			dmd, ddata, err := actions.ToDeadLetter(md, data, actions.DeadLetterOptions{Reason: mqfmt.RCQFull,
				DestQName: "ORDERS.IN", DestQMgrName: "QM1", PutApplType: mqfmt.ATUnix, PutApplName: "amqrmppa", Now: f.clk.Now()})
			if err != nil {
				t.Fatal(err)
			}
			if dmd.CodedCharSetId != tc.ccsid || dmd.Encoding != tc.enc {
				t.Fatalf("dead letter MQMD says CCSID %d encoding %d", dmd.CodedCharSetId, dmd.Encoding)
			}
			if ebcdic := tc.ccsid != 1208; ebcdic != bytes.Equal(ddata[:4], []byte{0xC4, 0xD3, 0xC8, 0x40}) {
				t.Fatalf("MQDLH StrucId % X in CCSID %d", ddata[:4], tc.ccsid)
			}
			// Requeue in memory undoes exactly what dead-lettering did.
			back, body, _, err := ops.FromDeadLetter(dmd, ddata)
			if err != nil || back != md || !bytes.Equal(body, data) {
				t.Fatalf("FromDeadLetter: %v\n got %+v\nwant %+v", err, back, md)
			}
			f.putSetAll(c, "QM1.DEADQ", dmd, ddata)
			s := f.summaries("QM1.DEADQ")[0]
			if !s.HasDLH || s.DLHDestQ != "ORDERS.IN" || s.DLHDestQMgr != "QM1" || s.DLHFormat != "MQSTR" ||
				s.DLHPutAppl != "amqrmppa" || s.DLHReason != int32(mqfmt.RCQFull) || s.DecodeErr != "" || s.BodyOffset != mqfmt.DLHLen {
				t.Fatalf("summary of the dead letter: %+v", s)
			}
			res := f.run(f.engine(), ops.OpRequest{Op: ops.OpRequeue, Queue: "QM1.DEADQ", All: true, Workers: 1})
			if res.Done != 1 {
				t.Fatalf("requeue: %+v", res)
			}
			got := f.browse("ORDERS.IN")
			if len(got) != 1 {
				t.Fatalf("%d messages on ORDERS.IN", len(got))
			}
			checkRestored(t, got[0], md, data)
			if !bytes.Equal(got[0].Data, data) {
				t.Errorf("requeued body differs from the original")
			}
		})
	}
}

// zosDeadLetter is an MQDLH as a z/OS queue manager (CCSID 500, encoding
// 785) writes it, spelled byte by byte from IBM's MQDLH layout and the
// invariant EBCDIC code points, not by this program's encoder.
func zosDeadLetter() []byte {
	ebc := map[rune]byte{' ': 0x40, '.': 0x4B, '0': 0xF0, '1': 0xF1, '2': 0xF2, '6': 0xF6, '8': 0xF8}
	for i, r := range "ABCDEFGHI" {
		ebc[r] = 0xC1 + byte(i)
	}
	for i, r := range "JKLMNOPQR" {
		ebc[r] = 0xD1 + byte(i)
	}
	for i, r := range "STUVWXYZ" {
		ebc[r] = 0xE2 + byte(i)
	}
	chars := func(s string, n int) []byte {
		b := bytes.Repeat([]byte{0x40}, n)
		for i, r := range s {
			b[i] = ebc[r]
		}
		return b
	}
	i32 := func(v int32) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	var b []byte
	for _, part := range [][]byte{
		chars("DLH", 4), i32(1), i32(2053), chars("ORDERS.IN", 48), chars("QMZOS", 48),
		i32(785), i32(500), chars("MQSTR", 8), i32(2), chars("CSQXRCTL", 28),
		chars("20261201", 8), chars("08000000", 8),
	} {
		b = append(b, part...)
	}
	return b
}

func TestR10b_RealEBCDICMQDLHIsRecognised(t *testing.T) {
	body := []byte{0xC8, 0x85, 0x93, 0x93, 0x96} // "Hello" in CCSID 500
	m := mqwatch.Message{Data: append(zosDeadLetter(), body...), Length: mqfmt.DLHLen + len(body)}
	m.MD = mqfmt.NewMQMD()
	m.MD.Format, m.MD.CodedCharSetId, m.MD.Encoding = mqfmt.FmtDeadLetter, 500, mqfmt.EncodingS390
	s := mqwatch.Summarize(&m)
	if !s.HasDLH || s.DLHDestQ != "ORDERS.IN" || s.DLHDestQMgr != "QMZOS" || s.DLHFormat != "MQSTR" ||
		s.DLHPutAppl != "CSQXRCTL" || s.BodyFormat != "MQSTR" || s.BodyCCSID != 500 || s.DecodeErr != "" {
		t.Fatalf("summary %+v", s)
	}
	if s.DLHPutTime.IsZero() {
		t.Error("the EBCDIC PutDate/PutTime were not read")
	}
	md, data, d, err := ops.FromDeadLetter(m.MD, m.Data)
	if err != nil || md.Format != mqfmt.FmtString || md.CodedCharSetId != 500 || md.Encoding != mqfmt.EncodingS390 ||
		!bytes.Equal(data, body) || strings.TrimSpace(d.DestQMgrName) != "QMZOS" {
		t.Fatalf("FromDeadLetter: %v, %+v, % X", err, md, data)
	}
}

package actions

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// fuzzMD builds a received descriptor from the fuzzed fields.
func fuzzMD(format string, enc, ccsid, expiry int32) mqfmt.MQMD {
	md := receivedMD()
	md.Format, md.Encoding, md.CodedCharSetId, md.Expiry = format, mqfmt.Encoding(enc), ccsid, expiry
	return md
}

func FuzzToBackoutQueue(f *testing.F) {
	f.Add(mqfmt.FmtString, int32(546), int32(819), int32(600), []byte("hello"))
	f.Fuzz(func(t *testing.T, format string, enc, ccsid, expiry int32, data []byte) {
		if len(format) > 8 {
			format = format[:8]
		}
		md := fuzzMD(format, enc, ccsid, expiry)
		keep := bytes.Clone(data)
		got, out, err := ToBackoutQueue(md, data)
		if !bytes.Equal(data, keep) {
			t.Fatal("input data modified")
		}
		if err != nil {
			return
		}
		if got.BackoutCount != 0 || got.Expiry != expiry {
			t.Fatalf("BackoutCount %d Expiry %d", got.BackoutCount, got.Expiry)
		}
		if bytes.Equal(out, data) && got.Format == md.Format {
			return // R5a
		}
		r, err := mqfmt.DecodeRFH2(out, 0, binary.BigEndian)
		if err != nil {
			t.Fatalf("added RFH2 does not decode: %v", err)
		}
		if r.Encoding != md.Encoding || r.CodedCharSetId != ccsid || r.Format != (format + "        ")[:8] || !bytes.Equal(out[r.StrucLength:], data) {
			t.Fatalf("RFH2 %+v does not describe the original", r)
		}
	})
}

func FuzzToDeadLetter(f *testing.F) {
	f.Add(mqfmt.FmtString, int32(546), int32(819), "ORDERS.IN", []byte("payload"))
	f.Fuzz(func(t *testing.T, format string, enc, ccsid int32, destQ string, data []byte) {
		md := fuzzMD(format, enc, ccsid, -1)
		o := asfDLQOptions()
		o.DestQName = destQ
		got, out, err := ToDeadLetter(md, data, o)
		if err != nil {
			return
		}
		bo, err := got.Encoding.ByteOrder()
		if err != nil {
			t.Fatalf("MQMD Encoding %d gives no byte order", got.Encoding)
		}
		d, err := mqfmt.DecodeDLH(out, 0, bo)
		if err != nil {
			t.Fatalf("DLH does not decode: %v", err)
		}
		if d.Encoding != md.Encoding || d.CodedCharSetId != ccsid || !bytes.Equal(out[mqfmt.DLHLen:], data) {
			t.Fatalf("DLH %+v does not describe the original", d)
		}
	})
}

func FuzzExceptionReport(f *testing.F) {
	f.Add(int32(mqfmt.ROExceptionWithData), mqfmt.FmtString, int32(546), int32(819), []byte("hello"))
	f.Fuzz(func(t *testing.T, report int32, format string, enc, ccsid int32, data []byte) {
		md := fuzzMD(format, enc, ccsid, -1)
		md.Report = report
		r, ok := ExceptionReport(md, data, mqfmt.RCBackoutThresholdReached, testNow)
		if !ok {
			if report&roExceptionMask != 0 {
				t.Fatal("no report despite an exception option")
			}
			return
		}
		if len(r.Data) > len(data) || !bytes.Equal(r.Data, data[:len(r.Data)]) {
			t.Fatalf("report data is not a prefix of the original (%d of %d bytes)", len(r.Data), len(data))
		}
		if r.MD.MsgType != mqfmt.MTReport {
			t.Fatal("not a report")
		}
	})
}

func FuzzParseStyle(f *testing.F) {
	f.Add("sync-transacted")
	f.Fuzz(func(t *testing.T, name string) {
		s, err := ParseStyle(name)
		if err != nil {
			return
		}
		if again, err := ParseStyle(s.String()); err != nil || again != s {
			t.Fatalf("%q parsed as %v, which does not round-trip", name, s)
		}
	})
}

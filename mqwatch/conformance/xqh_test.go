package conformance

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// buildXQH writes an MQXQH as a queue manager would, for the decoder's tests.
func buildXQH(bo binary.ByteOrder, rq, rqm string, md mqfmt.MQMD) []byte {
	b := make([]byte, 0, xqhLen)
	b = append(b, xqhStrucID...)
	var v [4]byte
	bo.PutUint32(v[:], xqhVersion1)
	b = append(b, v[:]...)
	b = append(b, pad(rq, nameFieldLen)...)
	b = append(b, pad(rqm, nameFieldLen)...)
	return append(b, md.Encode(bo)[:mqfmt.MQMDLenV1]...)
}

func pad(s string, n int) string {
	for len(s) < n {
		s += " "
	}
	return s
}

func TestDecodeXQH(t *testing.T) {
	md := mqfmt.NewMQMD()
	md.Version = 1
	md.Format = mqfmt.FmtString
	md.MsgId = id("MSG")
	good := buildXQH(binary.LittleEndian, "CONF.TARGET", "CONFQM2", md)
	bad := func(off int, v byte) []byte {
		b := append([]byte(nil), good...)
		b[off] = v
		return b
	}
	tests := []struct {
		name    string
		in      []byte
		bo      binary.ByteOrder
		wantOff int // -1 = no error
	}{
		{"little-endian header decodes", good, binary.LittleEndian, -1},
		{"big-endian header decodes", buildXQH(binary.BigEndian, "CONF.TARGET", "CONFQM2", md), binary.BigEndian, -1},
		{"wrong byte order fails at Version", good, binary.BigEndian, 4},
		{"bad StrucId fails at 0", bad(0, 'Y'), binary.LittleEndian, 0},
		{"bad embedded MQMD StrucId fails at 104", bad(xqhMDOffset, 'X'), binary.LittleEndian, xqhMDOffset},
		{"truncated header fails at its end", good[:300], binary.LittleEndian, 300},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, err := decodeXQH(tt.in, tt.bo)
			if tt.wantOff < 0 {
				if err != nil {
					t.Fatal(err)
				}
				if h.RemoteQName != "CONF.TARGET" || h.RemoteQMgrName != "CONFQM2" || h.MD.MsgId != id("MSG") || h.MD.Version != 1 {
					t.Errorf("decoded %+v", h)
				}
				return
			}
			var de *mqfmt.DecodeError
			if !errors.As(err, &de) || de.Offset != tt.wantOff {
				t.Errorf("err %v, want a DecodeError at offset %d", err, tt.wantOff)
			}
		})
	}
}

func FuzzDecodeXQH(f *testing.F) {
	md := mqfmt.NewMQMD()
	f.Add(buildXQH(binary.LittleEndian, "Q", "QM", md), false)
	f.Add(buildXQH(binary.BigEndian, "Q", "QM", md), true)
	f.Add([]byte("XQH \x01\x00\x00\x00"), false)
	f.Fuzz(func(t *testing.T, b []byte, big bool) {
		var bo binary.ByteOrder = binary.LittleEndian
		if big {
			bo = binary.BigEndian
		}
		_, err := decodeXQH(b, bo)
		var de *mqfmt.DecodeError
		if err != nil && (!errors.As(err, &de) || de.Offset < 0 || de.Offset > len(b)) {
			t.Fatalf("error %v is not a DecodeError within the input", err)
		}
	})
}

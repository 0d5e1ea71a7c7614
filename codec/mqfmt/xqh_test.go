package mqfmt

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
)

// xqhGolden is IBM's MQXQH layout: StrucId, Version, RemoteQName,
// RemoteQMgrName, then MsgDesc as an MQMD1, whose fields sit at 104 plus their
// MQMD offset and stop at ApplOriginData (324 bytes), 428 bytes in all.
func xqhGolden(t testing.TB, bo binary.ByteOrder) ([]byte, XQH) {
	mdFields, md := mqmdGoldenFields(t)
	md.Version = 1
	md.Format = FmtMDE
	fields := []hdrF{{0, 4, "XQH "}, {4, 4, int32(1)}, {8, 48, "ORDERS.IN"}, {56, 48, "QM2"}}
	for _, f := range mdFields {
		if f.off >= MQMDLenV1 {
			break
		}
		switch f.off {
		case 4:
			f.v = int32(1)
		case 32:
			f.v = "MQHMDE"
		}
		f.off += XQHMsgDescOffset
		fields = append(fields, f)
	}
	def := NewMQMD()
	md.GroupId, md.MsgSeqNumber, md.Offset, md.MsgFlags, md.OriginalLength =
		def.GroupId, def.MsgSeqNumber, def.Offset, def.MsgFlags, def.OriginalLength
	return hdrBytes(t, XQHLen, bo, fields...), XQH{
		Version: 1, RemoteQName: "ORDERS.IN" + strings.Repeat(" ", 39),
		RemoteQMgrName: "QM2" + strings.Repeat(" ", 45), MsgDesc: md,
	}
}

func TestXQHGoldenVectors(t *testing.T) {
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			golden, want := xqhGolden(t, o.bo)
			got, err := DecodeXQH(golden, 0, o.bo)
			if err != nil {
				t.Fatalf("DecodeXQH: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
			}
			if enc := want.Encode(o.bo); !bytes.Equal(enc, golden) {
				t.Errorf("Encode differs from the golden vector at byte %d", hdrFirstDiff(enc, golden))
			}
		})
	}
}

func TestDecodeXQHRejects(t *testing.T) {
	golden, _ := xqhGolden(t, binary.LittleEndian)
	mutate := func(f func(b []byte)) []byte {
		b := bytes.Clone(golden)
		f(b)
		return b
	}
	tests := []struct {
		name   string
		in     []byte
		off    int
		trunc  bool
		substr string
	}{
		{"cut_inside_embedded_mqmd_is_truncated", golden[:400], 0, true, "needs 428 bytes, 400 remain"},
		{"wrong_strucid", mutate(func(b []byte) { copy(b, "XQ  ") }), 0, false, "StrucId"},
		{"version_2", mutate(func(b []byte) { b[4] = 2 }), 4, false, "Version 2, want 1"},
		{"embedded_mqmd_strucid_at_absolute_offset", mutate(func(b []byte) { copy(b[104:], "XX  ") }), 104, false, "StrucId"},
		{"embedded_mqmd_version_at_absolute_offset", mutate(func(b []byte) { b[108] = 9 }), 108, false, "Version 9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeXQH(tt.in, 0, binary.LittleEndian)
			hdrWantErr(t, err, tt.off, tt.trunc, tt.substr)
		})
	}
}

func TestXQHLengthMatchesIBM(t *testing.T) {
	// MQXQH_LENGTH_1 is 428: the embedded descriptor is the version-1 MQMD.
	x := XQH{Version: 1, MsgDesc: NewMQMD()}
	if n := len(x.Encode(binary.BigEndian)); n != 428 || XQHLen != 428 {
		t.Errorf("MQXQH encodes to %d bytes (XQHLen %d), want 428", n, XQHLen)
	}
}

// mdeGolden is IBM's MQMDE layout (C declaration of MQMDE), 72 bytes.
func mdeGolden(t testing.TB, bo binary.ByteOrder) ([]byte, MDE) {
	gid := bytes.Repeat([]byte{0x5A}, 24)
	b := hdrBytes(t, MDELen, bo,
		hdrF{0, 4, "MDE "}, hdrF{4, 4, int32(2)}, hdrF{8, 4, int32(72)}, hdrF{12, 4, int32(546)},
		hdrF{16, 4, int32(1208)}, hdrF{20, 8, "MQHRF2"}, hdrF{28, 4, int32(0)}, hdrF{32, 24, gid},
		hdrF{56, 4, int32(3)}, hdrF{60, 4, int32(100)}, hdrF{64, 4, int32(0x18)}, hdrF{68, 4, int32(2000)},
	)
	m := MDE{Version: 2, StrucLength: 72, Encoding: 546, CodedCharSetId: 1208, Format: FmtRFH2,
		MsgSeqNumber: 3, Offset: 100, MsgFlags: 0x18, OriginalLength: 2000}
	copy(m.GroupId[:], gid)
	return b, m
}

func TestMDEGoldenVectors(t *testing.T) {
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			golden, want := mdeGolden(t, o.bo)
			got, err := DecodeMDE(golden, 0, o.bo)
			if err != nil {
				t.Fatalf("DecodeMDE: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded %+v, want %+v", got, want)
			}
			if enc := want.Encode(o.bo); !bytes.Equal(enc, golden) {
				t.Errorf("Encode differs at byte %d", hdrFirstDiff(enc, golden))
			}
		})
	}
}

func TestDecodeMDERejects(t *testing.T) {
	golden, _ := mdeGolden(t, binary.BigEndian)
	tests := []struct {
		name   string
		patch  func(b []byte)
		off    int
		substr string
	}{
		{"version_1", func(b []byte) { b[7] = 1 }, 4, "Version 1, want 2"},
		{"struclength_not_72", func(b []byte) { b[11] = 76 }, 8, "StrucLength 76"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := bytes.Clone(golden)
			tt.patch(b)
			_, err := DecodeMDE(b, 0, binary.BigEndian)
			hdrWantErr(t, err, tt.off, false, tt.substr)
		})
	}
	t.Run("cut_is_truncated", func(t *testing.T) {
		_, err := DecodeMDE(golden[:71], 0, binary.BigEndian)
		hdrWantErr(t, err, 0, true, "truncated")
	})
}

func TestNewMDEHasIBMDefaults(t *testing.T) {
	m := NewMDE()
	want := hdrBytes(t, MDELen, binary.BigEndian,
		hdrF{0, 4, "MDE "}, hdrF{4, 4, int32(2)}, hdrF{8, 4, int32(72)}, hdrF{12, 4, int32(0)},
		hdrF{16, 4, int32(0)}, hdrF{20, 8, ""}, hdrF{28, 4, int32(0)}, hdrF{32, 24, make([]byte, 24)},
		hdrF{56, 4, int32(1)}, hdrF{60, 4, int32(0)}, hdrF{64, 4, int32(0)}, hdrF{68, 4, int32(-1)},
	)
	if got := m.Encode(binary.BigEndian); !bytes.Equal(got, want) {
		t.Errorf("MQMDE_DEFAULT differs at byte %d", hdrFirstDiff(got, want))
	}
}

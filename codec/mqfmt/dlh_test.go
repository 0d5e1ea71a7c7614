package mqfmt

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
)

// dlhGolden is IBM's MQDLH layout (C declaration of MQDLH) holding the
// trigger-monitor dead letter of the yespon dump: Reason 265
// (MQFB_APPL_CANNOT_BE_STARTED) and a PutApplName padded with NULs.
func dlhGolden(t testing.TB, bo binary.ByteOrder) ([]byte, DLH) {
	name := "RUNMQTRM" + strings.Repeat("\x00", 20)
	b := hdrBytes(t, DLHLen, bo,
		hdrF{0, 4, "DLH "}, hdrF{4, 4, int32(1)}, hdrF{8, 4, int32(265)},
		hdrF{12, 48, "SYSTEM.CICS.INITIATION.QUEUE"}, hdrF{60, 48, "QMMBFE"},
		hdrF{108, 4, int32(273)}, hdrF{112, 4, int32(819)}, hdrF{116, 8, "MQTRIG"},
		hdrF{124, 4, int32(ATUnix)}, hdrF{128, 28, []byte(name)},
		hdrF{156, 8, "20120914"}, hdrF{164, 8, "18260763"},
	)
	return b, DLH{
		Version: 1, Reason: 265,
		DestQName:    "SYSTEM.CICS.INITIATION.QUEUE" + strings.Repeat(" ", 20),
		DestQMgrName: "QMMBFE" + strings.Repeat(" ", 42),
		Encoding:     273, CodedCharSetId: 819, Format: FmtTrigger,
		PutApplType: ATUnix, PutApplName: name, PutDate: "20120914", PutTime: "18260763",
	}
}

func TestDLHGoldenVectors(t *testing.T) {
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			golden, want := dlhGolden(t, o.bo)
			// Decode at a non-zero offset: offsets are absolute in the buffer.
			buf := append([]byte("prefix.."), golden...)
			got, err := DecodeDLH(buf, 8, o.bo)
			if err != nil {
				t.Fatalf("DecodeDLH: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
			}
			if enc := want.Encode(o.bo); !bytes.Equal(enc, golden) {
				t.Errorf("Encode differs from the golden vector at byte %d", hdrFirstDiff(enc, golden))
			}
			if Trim(got.PutApplName) != "RUNMQTRM" {
				t.Errorf("Trim(PutApplName) = %q", Trim(got.PutApplName))
			}
		})
	}
}

func TestDecodeDLHRejects(t *testing.T) {
	golden, _ := dlhGolden(t, binary.BigEndian)
	at10 := append(make([]byte, 10), golden...)
	mutate := func(f func(b []byte)) []byte {
		b := bytes.Clone(at10)
		f(b)
		return b
	}
	tests := []struct {
		name   string
		in     []byte
		bo     binary.ByteOrder
		off    int
		trunc  bool
		substr string
	}{
		{"cut_at_171_bytes_is_truncated", at10[:10+171], binary.BigEndian, 10, true, "needs 172 bytes, 171 remain"},
		{"nothing_at_offset_is_truncated", at10[:10], binary.BigEndian, 10, true, "truncated"},
		{"wrong_strucid", mutate(func(b []byte) { copy(b[10:], "DLX ") }), binary.BigEndian, 10, false, "StrucId"},
		{"read_in_the_wrong_byte_order", at10, binary.LittleEndian, 14, false, "byte-swapped"},
		{"version_2_does_not_exist", mutate(func(b []byte) { b[17] = 2 }), binary.BigEndian, 14, false, "Version 2, want 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := DecodeDLH(tt.in, 10, tt.bo)
			hdrWantErr(t, err, tt.off, tt.trunc, tt.substr)
			if !reflect.DeepEqual(d, DLH{}) {
				t.Errorf("a failed decode returned %+v, want the zero DLH", d)
			}
		})
	}
}

func TestDetectDLHOrder(t *testing.T) {
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			golden, _ := dlhGolden(t, o.bo)
			got, err := DetectDLHOrder(golden, 0)
			if err != nil || got != o.bo {
				t.Fatalf("DetectDLHOrder = %v, %v; want %v", got, err, o.bo)
			}
		})
	}
	t.Run("version_5_in_neither_order", func(t *testing.T) {
		_, err := DetectDLHOrder([]byte("DLH \x00\x00\x00\x05"), 0)
		hdrWantErr(t, err, 4, false, "neither byte order")
	})
}

func TestNewDLHHasIBMDefaults(t *testing.T) {
	d := NewDLH()
	want := hdrBytes(t, DLHLen, binary.LittleEndian,
		hdrF{0, 4, "DLH "}, hdrF{4, 4, int32(1)}, hdrF{8, 4, int32(0)},
		hdrF{12, 48, ""}, hdrF{60, 48, ""}, hdrF{108, 4, int32(0)}, hdrF{112, 4, int32(0)},
		hdrF{116, 8, ""}, hdrF{124, 4, int32(0)}, hdrF{128, 28, ""}, hdrF{156, 8, ""}, hdrF{164, 8, ""},
	)
	if got := d.Encode(binary.LittleEndian); !bytes.Equal(got, want) {
		t.Errorf("MQDLH_DEFAULT differs at byte %d", hdrFirstDiff(got, want))
	}
}

func TestDLHAppendEncodeAppends(t *testing.T) {
	d := NewDLH()
	got := d.AppendEncode([]byte("head"), binary.BigEndian)
	if len(got) != 4+DLHLen || string(got[:8]) != "headDLH " {
		t.Errorf("AppendEncode gave %d bytes starting %q", len(got), got[:8])
	}
}

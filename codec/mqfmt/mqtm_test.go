package mqfmt

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"
)

// tmGolden is IBM's MQTM layout (C declaration of MQTM), 684 bytes.
func tmGolden(t testing.TB, bo binary.ByteOrder) ([]byte, TM) {
	b := hdrBytes(t, TMLen, bo,
		hdrF{0, 4, "TM  "}, hdrF{4, 4, int32(1)}, hdrF{8, 48, "102881000019_2"},
		hdrF{56, 48, "UNIX.PRO2"}, hdrF{104, 64, "trigger data"}, hdrF{168, 4, int32(ATUnix)},
		hdrF{172, 256, "/bepsmbfe/bin/lib/MQcrecv"}, hdrF{428, 128, "env"}, hdrF{556, 128, "user"},
	)
	pad := func(s string, n int) string { return s + strings.Repeat(" ", n-len(s)) }
	return b, TM{
		Version: 1, QName: pad("102881000019_2", 48), ProcessName: pad("UNIX.PRO2", 48),
		TriggerData: pad("trigger data", 64), ApplType: ATUnix,
		ApplId: pad("/bepsmbfe/bin/lib/MQcrecv", 256), EnvData: pad("env", 128),
		UserData: pad("user", 128), Length: TMLen,
	}
}

func TestTMGoldenVectors(t *testing.T) {
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			golden, want := tmGolden(t, o.bo)
			got, err := DecodeTM(golden, 0, o.bo)
			if err != nil {
				t.Fatalf("DecodeTM: %v", err)
			}
			if !reflect.DeepEqual(got, want) || !got.Complete() {
				t.Errorf("decoded\n%+v\nwant\n%+v", got, want)
			}
			if enc := want.Encode(o.bo); !bytes.Equal(enc, golden) {
				t.Errorf("Encode differs at byte %d", hdrFirstDiff(enc, golden))
			}
		})
	}
}

func TestDecodeTMReturnsWhatATruncatedTriggerMessageHolds(t *testing.T) {
	golden, whole := tmGolden(t, binary.BigEndian)
	tests := []struct {
		name string
		cut  int
		want func(tm *TM)
	}{
		{"cut_after_version", 8, func(tm *TM) {
			*tm = TM{Version: 1}
		}},
		{"cut_inside_qname", 20, func(tm *TM) {
			*tm = TM{Version: 1, QName: whole.QName[:12]}
		}},
		{"cut_inside_appltype_leaves_it_unset", 170, func(tm *TM) {
			tm.ApplType, tm.ApplId, tm.EnvData, tm.UserData = 0, "", "", ""
		}},
		{"cut_inside_applid_keeps_its_start", 212, func(tm *TM) {
			tm.ApplId, tm.EnvData, tm.UserData = whole.ApplId[:40], "", ""
		}},
		{"cut_one_byte_short", TMLen - 1, func(tm *TM) {
			tm.UserData = whole.UserData[:127]
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeTM(golden[:tt.cut], 0, binary.BigEndian)
			hdrWantErr(t, err, 0, true, "truncated")
			want := whole
			tt.want(&want)
			want.Length = tt.cut
			if !reflect.DeepEqual(got, want) {
				t.Errorf("partial decode\n%+v\nwant\n%+v", got, want)
			}
			if got.Complete() {
				t.Error("a partial MQTM reports Complete")
			}
		})
	}
}

func TestDecodeTMRejects(t *testing.T) {
	golden, _ := tmGolden(t, binary.LittleEndian)
	tests := []struct {
		name   string
		in     []byte
		bo     binary.ByteOrder
		off    int
		trunc  bool
		substr string
	}{
		{"seven_bytes_say_nothing", golden[:7], binary.LittleEndian, 0, true, "truncated"},
		{"wrong_strucid", append([]byte("TMC2"), golden[4:]...), binary.LittleEndian, 0, false, "StrucId"},
		{"wrong_byte_order", golden, binary.BigEndian, 4, false, "byte-swapped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DecodeTM(tt.in, 0, tt.bo)
			hdrWantErr(t, err, tt.off, tt.trunc, tt.substr)
			if got.Length != 0 {
				t.Errorf("a rejected MQTM reports %d bytes decoded", got.Length)
			}
		})
	}
}

func TestDetectTMOrder(t *testing.T) {
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			golden, _ := tmGolden(t, o.bo)
			if got, err := DetectTMOrder(golden[:8], 0); err != nil || got != o.bo {
				t.Fatalf("DetectTMOrder = %v, %v", got, err)
			}
		})
	}
}

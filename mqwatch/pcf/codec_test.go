package pcf

import (
	"encoding/binary"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func TestEncodeCommandWritesIBMLayout(t *testing.T) {
	for _, bo := range []order{binary.LittleEndian, binary.BigEndian} {
		t.Run(bo.String(), func(t *testing.T) {
			b, err := encodeCommand(bo, cmdInquireQStatus, inquireQueueStatusParams("ORDERS.*"))
			if err != nil {
				t.Fatal(err)
			}
			i := func(off int) int32 { return int32(bo.Uint32(b[off:])) }
			// MQCFH: type COMMAND_XR, length 36, version 3, command, seq 1, control LAST, 3 params.
			want := []int32{cftCommandXR, 36, 3, cmdInquireQStatus, 1, cfcLast, 0, 0, 3}
			for k, v := range want {
				if got := i(4 * k); got != v {
					t.Errorf("MQCFH word %d = %d, want %d", k, got, v)
				}
			}
			// MQCFST QName: 20 fixed + "ORDERS.*" (8, already a multiple of 4).
			if i(36) != cftString || i(40) != 28 || i(44) != caQName || i(52) != 8 || string(b[56:64]) != "ORDERS.*" {
				t.Errorf("MQCFST wrong: % x", b[36:64])
			}
			// MQCFIN status type, then MQCFIL of the status attributes.
			if i(64) != cftInteger || i(68) != 16 || i(72) != iacfQStatusType || i(76) != iacfQStatus {
				t.Errorf("MQCFIN wrong: % x", b[64:80])
			}
			n := len(queueStatusSelectors)
			if i(80) != cftIntegerList || int(i(84)) != 16+4*n || i(88) != iacfQStatusAttrs || int(i(92)) != n {
				t.Errorf("MQCFIL wrong: % x", b[80:96])
			}
			if len(b) != 96+4*n {
				t.Errorf("length %d, want %d", len(b), 96+4*n)
			}
			m, err := Decode(b, bo)
			if err != nil {
				t.Fatalf("own command does not decode: %v", err)
			}
			if got := mqfmt.Trim(m.find(caQName).Str); got != "ORDERS.*" {
				t.Errorf("decoded QName %q", got)
			}
		})
	}
}

func TestEncodeCommandPadsStringsToFourBytes(t *testing.T) {
	b, err := encodeCommand(binary.BigEndian, cmdInquireQ, []Param{Str(caQName, "Q1")})
	if err != nil {
		t.Fatal(err)
	}
	if sl := binary.BigEndian.Uint32(b[40:]); sl != 24 {
		t.Errorf("StrucLength %d, want 24 (20 + 2 rounded up to 4)", sl)
	}
	if len(b) != 36+24 {
		t.Errorf("length %d, want 60", len(b))
	}
}

func TestEncodeCommandRejectsWhatItCannotWrite(t *testing.T) {
	tests := []struct {
		name string
		p    Param
	}{
		{"integer_beyond_32_bits", Param{Type: cftInteger, Param: 1, Int: 1 << 40}},
		{"list_value_beyond_32_bits", Param{Type: cftIntegerList, Param: 1, Ints: []int64{-1 << 40}}},
		{"group_is_not_a_command_structure", Param{Type: cftGroup, Param: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := encodeCommand(binary.LittleEndian, cmdInquireQ, []Param{tt.p}); err == nil {
				t.Fatal("want an error")
			}
		})
	}
}

func TestDecodePCFReadsEveryStructureInBothByteOrders(t *testing.T) {
	params := []Param{
		Str(caQName, "PAYMENTS.IN"),
		Int(iaCurrentQDepth, 212),
		{Type: cftInteger64, Param: 7001, Int: -1 << 40},
		IntList(iacfQAttrs, 1, -2, 3),
		{Type: cftInteger64List, Param: 7002, Ints: []int64{1 << 33, -5}},
		{Type: cftStringList, Param: 7003, Strs: []string{"A", "BCD"}},
		ByteStr(bacfConnectionID, []byte{1, 2, 3, 4, 5}),
		{Type: cftGroup, Param: 7004, Group: []Param{Int(1, 9), Str(2, "x")}},
		Int(iaOpenInputCount, 4),
	}
	for _, bo := range []order{binary.LittleEndian, binary.BigEndian} {
		t.Run(bo.String(), func(t *testing.T) {
			m, err := Decode(replyBytes(bo, cftResponse, cfcLast, 0, params...), bo)
			if err != nil {
				t.Fatal(err)
			}
			if m.Header.Type != cftResponse || m.Header.Control != cfcLast || len(m.Params) != len(params) {
				t.Fatalf("header %+v, %d params", m.Header, len(m.Params))
			}
			if v, _ := m.strAttr(caQName); v != "PAYMENTS.IN" {
				t.Errorf("MQCFST %q", v)
			}
			if v, _ := m.intAttr(iaCurrentQDepth); v != 212 {
				t.Errorf("MQCFIN %d", v)
			}
			if v, _ := m.intAttr(7001); v != -1<<40 {
				t.Errorf("MQCFIN64 %d", v)
			}
			if got := m.find(iacfQAttrs).Ints; !reflect.DeepEqual(got, []int64{1, -2, 3}) {
				t.Errorf("MQCFIL %v", got)
			}
			if got := m.find(7002).Ints; !reflect.DeepEqual(got, []int64{1 << 33, -5}) {
				t.Errorf("MQCFIL64 %v", got)
			}
			if got := m.find(7003).Strs; !reflect.DeepEqual(got, []string{"A  ", "BCD"}) {
				t.Errorf("MQCFSL %q", got)
			}
			if got, _ := m.bytesAttr(bacfConnectionID); !reflect.DeepEqual(got, []byte{1, 2, 3, 4, 5}) {
				t.Errorf("MQCFBS % x", got)
			}
			if g := m.find(7004).Group; len(g) != 2 || g[0].Int != 9 || mqfmt.Trim(g[1].Str) != "x" {
				t.Errorf("MQCFGR %+v", g)
			}
			if v, _ := m.intAttr(iaOpenInputCount); v != 4 {
				t.Errorf("parameter after the group: %d", v)
			}
		})
	}
}

func TestDecodePCFSkipsStructuresItDoesNotKnow(t *testing.T) {
	bo := binary.LittleEndian
	b := replyBytes(bo, cftResponse, cfcLast, 0, Int(1, 5))
	// Append an MQCFSF-sized unknown structure (type 99, 24 bytes) and bump the count.
	unknown := &pcfWriter{bo: bo}
	unknown.i32(99, 24, 42, 0, 0, 0)
	b = append(b, unknown.b...)
	b = append(b, replyBytes(bo, cftResponse, cfcLast, 0, Int(2, 6))[36:]...)
	bo.PutUint32(b[32:], 3)
	m, err := Decode(b, bo)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := m.intAttr(2); v != 6 || m.Params[1].Type != 99 || m.Params[1].Param != 42 {
		t.Errorf("params %+v", m.Params)
	}
}

func TestDecodePCFReportsTheBadByte(t *testing.T) {
	bo := binary.LittleEndian
	good := replyBytes(bo, cftResponse, cfcLast, 0, Str(caQName, "Q1"), Int(iaQType, 1))
	set := func(off int, v int32) []byte {
		b := append([]byte(nil), good...)
		bo.PutUint32(b[off:], uint32(v))
		return b
	}
	tests := []struct {
		name      string
		in        []byte
		strc      string
		off       int
		truncated bool
	}{
		{"shorter_than_MQCFH", good[:20], "MQCFH", 0, true},
		{"wrong_MQCFH_length", set(4, 40), "MQCFH", 4, false},
		{"unknown_MQCFH_version", set(8, 9), "MQCFH", 8, false},
		{"negative_parameter_count", set(32, -1), "PCF", 32, false},
		{"count_larger_than_the_data", set(32, 1000), "PCF", 32, false},
		{"string_length_beyond_structure", set(36+16, 100), "MQCFST", 36 + 16, false},
		{"negative_string_length", set(36+16, -4), "MQCFST", 36 + 16, false},
		{"structure_length_not_a_multiple_of_4", set(36+4, 22), "MQCFST", 36 + 4, false},
		{"structure_beyond_the_data", set(36+4, 400), "MQCFST", 36, true},
		{"last_structure_cut_short", good[:len(good)-4], "MQCFIN", 60, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.in, bo)
			var de *mqfmt.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("want a *mqfmt.DecodeError, got %v", err)
			}
			if de.Struct != tt.strc || de.Offset != tt.off {
				t.Errorf("got %s at %d (%v), want %s at %d", de.Struct, de.Offset, err, tt.strc, tt.off)
			}
			if errors.Is(err, mqfmt.ErrTruncated) != tt.truncated {
				t.Errorf("truncated = %v, want %v", !tt.truncated, tt.truncated)
			}
			if !strings.Contains(err.Error(), "at byte") {
				t.Errorf("error does not name the byte: %v", err)
			}
		})
	}
}

func TestDecodePCFBoundsCountsBeforeAllocating(t *testing.T) {
	bo := binary.BigEndian
	tests := []struct {
		name string
		p    []int32 // a structure written raw after a one-parameter MQCFH
	}{
		{"string_list_of_empty_strings_with_a_huge_count", []int32{cftStringList, 24, 1, 0, 1 << 30, 0}},
		{"integer_list_with_a_huge_count", []int32{cftIntegerList, 16, 1, 1 << 30}},
		{"group_with_a_huge_member_count", []int32{cftGroup, 16, 1, 1 << 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &pcfWriter{bo: bo}
			w.i32(cftResponse, 36, 1, cmdInquireQ, 1, cfcLast, 0, 0, 1)
			w.i32(tt.p...)
			if _, err := Decode(w.b, bo); err == nil {
				t.Fatal("want an error, not an allocation of the claimed count")
			}
		})
	}
}

func TestDecodePCFLimitsGroupNesting(t *testing.T) {
	g := Int(1, 1)
	for range maxGroupDepth + 1 {
		g = Param{Type: cftGroup, Param: 2, Group: []Param{g}}
	}
	_, err := Decode(replyBytes(binary.LittleEndian, cftResponse, cfcLast, 0, g), binary.LittleEndian)
	if err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Fatalf("want a nesting error, got %v", err)
	}
}

func BenchmarkDecodePCFQueueStatusReply(b *testing.B) {
	bo := binary.LittleEndian
	data := replyBytes(bo, cftResponse, cfcLast, 0,
		Str(caQName, "ORDERS.IN"), Int(iaCurrentQDepth, 9000), Int(iaOpenInputCount, 4),
		Int(iaOpenOutputCount, 2), Int(iacfUncommitted, 0), Int(iacfOldestMsgAge, 4000),
		Str(cacfLastPutDate, "2026-03-01"), Str(cacfLastPutTime, "03.00.00"),
		Str(cacfLastGetDate, "2026-03-01"), Str(cacfLastGetTime, "02.59.58"),
		Int(iaMonitoringQ, monMedium))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := Decode(data, bo)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := queueStatusFrom(&m, time.UTC); err != nil {
			b.Fatal(err)
		}
	}
}

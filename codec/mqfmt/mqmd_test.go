package mqfmt

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"
)

// mqmdGoldenFields is IBM's MQMD version-2 layout (C declaration of MQMD,
// field by field, MQLONG = 4 bytes) filled with values that differ from each
// other, so a field read from the wrong offset cannot pass unnoticed. The
// message identity comes from the yu-kun dead-letter dump in the corpus.
func mqmdGoldenFields(t testing.TB) ([]hdrF, MQMD) {
	msgID, _ := hex.DecodeString("414D5120514D432020202020202020209093F25002510020")
	acct, _ := hex.DecodeString("0334393600000000000000000000000000000000000000000000000000000006")
	corrID := bytes.Repeat([]byte{0xC1}, 24)
	groupID := bytes.Repeat([]byte{0x47}, 24)
	md := MQMD{
		Version: 2, Report: ROException | RODiscardMsg, MsgType: MTDatagram, Expiry: -1,
		Feedback: 265, Encoding: 546, CodedCharSetId: 819, Format: FmtDeadLetter,
		Priority: 4, Persistence: 1, BackoutCount: 3,
		ReplyToQ: strings.Repeat("R", 47) + " ", ReplyToQMgr: "QMC" + strings.Repeat(" ", 45),
		UserIdentifier: "mqm         ", ApplIdentityData: "identity" + strings.Repeat(" ", 24),
		PutApplType: ATUnix, PutApplName: "amqsput" + strings.Repeat(" ", 21),
		PutDate: "20130114", PutTime: "11241665", ApplOriginData: "orig",
		MsgSeqNumber: 7, Offset: 4096, MsgFlags: 0x0A, OriginalLength: 9000,
	}
	copy(md.MsgId[:], msgID)
	copy(md.CorrelId[:], corrID)
	copy(md.AccountingToken[:], acct)
	copy(md.GroupId[:], groupID)
	return []hdrF{
		{0, 4, "MD  "}, {4, 4, int32(2)}, {8, 4, int32(md.Report)}, {12, 4, int32(8)},
		{16, 4, int32(-1)}, {20, 4, int32(265)}, {24, 4, int32(546)}, {28, 4, int32(819)},
		{32, 8, "MQDEAD"}, {40, 4, int32(4)}, {44, 4, int32(1)}, {48, 24, msgID},
		{72, 24, corrID}, {96, 4, int32(3)}, {100, 48, strings.Repeat("R", 47)}, {148, 48, "QMC"},
		{196, 12, "mqm"}, {208, 32, acct}, {240, 32, "identity"}, {272, 4, int32(6)},
		{276, 28, "amqsput"}, {304, 8, "20130114"}, {312, 8, "11241665"}, {320, 4, "orig"},
		{324, 24, groupID}, {348, 4, int32(7)}, {352, 4, int32(4096)}, {356, 4, int32(0x0A)},
		{360, 4, int32(9000)},
	}, md
}

func TestMQMDGoldenVectors(t *testing.T) {
	fields, want := mqmdGoldenFields(t)
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			golden := hdrBytes(t, MQMDLenV2, o.bo, fields...)
			got, err := DecodeMQMD(golden, o.bo)
			if err != nil {
				t.Fatalf("DecodeMQMD: %v", err)
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

func TestMQMDRoundTripKeepsRawCharacterFields(t *testing.T) {
	for _, o := range hdrOrders {
		t.Run(o.name, func(t *testing.T) {
			md := NewMQMD()
			md.PutDate = "   \x00\x00\x00\x00\x00" // RFH2.msg's junk date
			md.PutTime = strings.Repeat("\x00", 8)
			md.PutApplName = "RUNMQTRM" + strings.Repeat("\x00", 20)
			b := md.Encode(o.bo)
			got, err := DecodeMQMD(b, o.bo)
			if err != nil {
				t.Fatal(err)
			}
			if again := got.Encode(o.bo); !bytes.Equal(again, b) {
				t.Errorf("Encode(Decode(b)) differs from b at byte %d", hdrFirstDiff(again, b))
			}
			if got.PutDate != md.PutDate || got.PutTime != md.PutTime || got.PutApplName != md.PutApplName {
				t.Errorf("raw fields changed: %q %q %q", got.PutDate, got.PutTime, got.PutApplName)
			}
			if Trim(got.PutApplName) != "RUNMQTRM" || Trim(got.PutTime) != "" {
				t.Errorf("Trim: %q %q", Trim(got.PutApplName), Trim(got.PutTime))
			}
		})
	}
}

func TestDecodeMQMDRejects(t *testing.T) {
	good := NewMQMD()
	le := good.Encode(binary.LittleEndian)
	mutate := func(f func(b []byte)) []byte {
		b := bytes.Clone(le)
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
		{"empty_input_is_truncated", nil, 0, true, "truncated"},
		{"version_1_layout_alone_is_truncated", le[:MQMDLenV1], 0, true, "needs 364 bytes, 324 remain"},
		{"wrong_strucid", mutate(func(b []byte) { copy(b, "XX  ") }), 0, false, "StrucId"},
		{"strucid_control_bytes_are_escaped", mutate(func(b []byte) { copy(b, "\x1b[2J") }), 0, false, `\x1b`},
		{"version_0", mutate(func(b []byte) { b[4] = 0 }), 4, false, "Version 0"},
		{"version_3", mutate(func(b []byte) { b[4] = 3 }), 4, false, "Version 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeMQMD(tt.in, binary.LittleEndian)
			hdrWantErr(t, err, tt.off, tt.trunc, tt.substr)
		})
	}
}

func TestDetectMQMDOrder(t *testing.T) {
	md := NewMQMD()
	v1 := md
	v1.Version = 1
	tests := []struct {
		name string
		in   []byte
		want binary.ByteOrder
		err  string
	}{
		{"version_2_big_endian", md.Encode(binary.BigEndian), binary.BigEndian, ""},
		{"version_2_little_endian", md.Encode(binary.LittleEndian), binary.LittleEndian, ""},
		{"version_1_big_endian", v1.Encode(binary.BigEndian), binary.BigEndian, ""},
		{"version_1_little_endian", v1.Encode(binary.LittleEndian), binary.LittleEndian, ""},
		{"version_7_neither", append([]byte("MD  "), 0, 0, 0, 7), nil, "neither 1 nor 2"},
		{"seven_bytes_truncated", []byte("MD  \x00\x00\x00"), nil, "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DetectMQMDOrder(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("DetectMQMDOrder = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestNewMQMDHasIBMDefaults(t *testing.T) {
	md := NewMQMD()
	b := md.Encode(binary.BigEndian)
	want := hdrBytes(t, MQMDLenV2, binary.BigEndian,
		hdrF{0, 4, "MD  "}, hdrF{4, 4, int32(2)}, hdrF{8, 4, int32(0)}, hdrF{12, 4, int32(MTDatagram)},
		hdrF{16, 4, int32(-1)}, hdrF{20, 4, int32(0)}, hdrF{24, 4, int32(546)}, hdrF{28, 4, int32(0)},
		hdrF{32, 8, ""}, hdrF{40, 4, int32(-1)}, hdrF{44, 4, int32(2)}, hdrF{48, 24, make([]byte, 24)},
		hdrF{72, 24, make([]byte, 24)}, hdrF{96, 4, int32(0)}, hdrF{100, 48, ""}, hdrF{148, 48, ""},
		hdrF{196, 12, ""}, hdrF{208, 32, make([]byte, 32)}, hdrF{240, 32, ""}, hdrF{272, 4, int32(0)},
		hdrF{276, 28, ""}, hdrF{304, 8, ""}, hdrF{312, 8, ""}, hdrF{320, 4, ""},
		hdrF{324, 24, make([]byte, 24)}, hdrF{348, 4, int32(1)}, hdrF{352, 4, int32(0)}, hdrF{356, 4, int32(0)},
		hdrF{360, 4, int32(-1)},
	)
	if !bytes.Equal(b, want) {
		t.Errorf("MQMD_DEFAULT encoding differs at byte %d", hdrFirstDiff(b, want))
	}
}

// hdrFirstDiff returns the first offset where a and b differ, or -1.
func hdrFirstDiff(a, b []byte) int {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

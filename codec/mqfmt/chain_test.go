package mqfmt

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
)

// chainDLH returns an MQDLH that announces format/enc/ccsid after it.
func chainDLH(format string, enc Encoding, ccsid int32) DLH {
	d := NewDLH()
	d.Reason, d.DestQName, d.Format, d.Encoding, d.CodedCharSetId = RCQFull, "ORDERS.IN", format8(format), enc, ccsid
	return d
}

// chainRFH2 encodes a one-folder RFH2 announcing format/enc/ccsid after it.
func chainRFH2(t testing.TB, bo binary.ByteOrder, format string, enc Encoding, ccsid int32) []byte {
	r := NewRFH2(enc, ccsid, format, NewFolder("jms", NewElement("Dst", "queue:///ORDERS.IN")))
	b, err := r.Encode(bo)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWalkChainFollowsEachHeadersDescription(t *testing.T) {
	// MQMD (LE) → MQDLH read LE, announcing a BE RFH2 → MQRFH2 read BE,
	// announcing an LE MQSTR body in CCSID 437.
	dlh := chainDLH(FmtRFH2, 273, 1208)
	data := dlh.Encode(binary.LittleEndian)
	rfh := chainRFH2(t, binary.BigEndian, "MQSTR", 546, 437)
	data = append(append(data, rfh...), "hello"...)

	c, err := WalkChain(FmtDeadLetter, 546, 819, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Headers) != 2 {
		t.Fatalf("%d headers, want 2", len(c.Headers))
	}
	h0, h1 := c.Headers[0], c.Headers[1]
	if h0.Kind != KindDLH || h0.Offset != 0 || h0.Length != DLHLen || h0.Encoding != 546 || h0.CCSID != 819 || h0.DLH.Reason != RCQFull {
		t.Errorf("header 0: %+v", h0)
	}
	if h1.Kind != KindRFH2 || h1.Offset != DLHLen || h1.Length != len(rfh) || h1.Encoding != 273 || h1.CCSID != 1208 {
		t.Errorf("header 1: %+v", h1)
	}
	want := Body{Offset: DLHLen + len(rfh), Length: 5, Format: FmtString, Encoding: 546, CCSID: 437}
	if c.Body != want {
		t.Errorf("body %+v, want %+v", c.Body, want)
	}
	if c.DLH() != h0.DLH || len(c.RFH2s()) != 1 || c.Folder("jms").Get("Dst") != "queue:///ORDERS.IN" || c.Header(KindTM) != nil {
		t.Error("chain accessors do not find the headers")
	}
}

func TestWalkChainTransmissionQueueMessage(t *testing.T) {
	// MQXQH → (embedded MQMD says MQHMDE) → MQMDE → MQRFH2 → MQSTR.
	bo := binary.BigEndian
	x := XQH{Version: 1, RemoteQName: "Q", RemoteQMgrName: "QM2", MsgDesc: NewMQMD()}
	x.MsgDesc.Version, x.MsgDesc.Format, x.MsgDesc.Encoding, x.MsgDesc.CodedCharSetId = 1, FmtMDE, 273, 819
	m := NewMDE()
	m.Format, m.Encoding, m.CodedCharSetId, m.MsgSeqNumber = FmtRFH2, 546, 1208, 2
	data := append(x.Encode(bo), m.Encode(bo)...)
	data = append(data, chainRFH2(t, binary.LittleEndian, "MQSTR", 546, 1208)...)
	data = append(data, "body"...)

	c, err := WalkChain(FmtXmitQHeader, 273, 819, data)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []HeaderKind
	for _, h := range c.Headers {
		kinds = append(kinds, h.Kind)
	}
	if !reflect.DeepEqual(kinds, []HeaderKind{KindXQH, KindMDE, KindRFH2}) {
		t.Fatalf("kinds %v", kinds)
	}
	if c.Headers[1].Offset != XQHLen || c.Headers[1].MDE.MsgSeqNumber != 2 || c.Headers[2].Offset != XQHLen+MDELen {
		t.Errorf("headers %+v", c.Headers)
	}
	if c.Body.Length != 4 || c.Body.Format != FmtString {
		t.Errorf("body %+v", c.Body)
	}
}

func TestWalkChainEdgeCases(t *testing.T) {
	le := binary.LittleEndian
	dlhTM := chainDLH(FmtTrigger, 546, 819)
	tm := TM{Version: 1, QName: "Q"}
	inherit := chainRFH2(t, le, "MQSTR", 546, CCSIDInherit)
	tests := []struct {
		name   string
		format string
		enc    Encoding
		ccsid  int32
		data   []byte
		kinds  []HeaderKind
		body   Body
	}{
		{"unknown_format_is_all_body", "MQSTR", 546, 1208, []byte("abc"), nil,
			Body{Length: 3, Format: FmtString, Encoding: 546, CCSID: 1208}},
		{"blank_format_with_no_data", FmtNone, 0, 0, nil, nil, Body{Format: FmtNone}},
		{"undefined_encoding_does_not_matter_for_a_body", "MQPCF", 0, 0, []byte("x"), nil,
			Body{Length: 1, Format: FmtPCF}},
		{"short_format_name_is_blank_padded", "MQDEAD", 546, 819, append(dlhTM.Encode(le), tm.Encode(le)...),
			[]HeaderKind{KindDLH, KindTM}, Body{Offset: DLHLen + TMLen, Format: FmtNone, Encoding: 546, CCSID: 819}},
		{"trigger_message_ends_the_chain", FmtDeadLetter, 546, 819, append(dlhTM.Encode(le), tm.Encode(le)...),
			[]HeaderKind{KindDLH, KindTM}, Body{Offset: DLHLen + TMLen, Format: FmtNone, Encoding: 546, CCSID: 819}},
		{"ccsid_inherit_keeps_the_headers_own", FmtRFH2, 546, 850, append(bytes.Clone(inherit), 'x'),
			[]HeaderKind{KindRFH2}, Body{Offset: len(inherit), Length: 1, Format: FmtString, Encoding: 546, CCSID: 850}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := WalkChain(tt.format, tt.enc, tt.ccsid, tt.data)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []HeaderKind
			for _, h := range c.Headers {
				kinds = append(kinds, h.Kind)
			}
			if !reflect.DeepEqual(kinds, tt.kinds) || c.Body != tt.body {
				t.Errorf("kinds %v body %+v; want %v %+v", kinds, c.Body, tt.kinds, tt.body)
			}
		})
	}
}

func TestWalkChainFailuresKeepWhatWasDecoded(t *testing.T) {
	le, be := binary.LittleEndian, binary.BigEndian
	dlh := chainDLH(FmtRFH2, 273, 1208)
	good := append(dlh.Encode(le), chainRFH2(t, be, "MQSTR", 273, 1208)...)
	badLen := bytes.Clone(good)
	be.PutUint32(badLen[DLHLen+8:], 38)
	var loop []byte
	for range MaxChainHeaders + 1 {
		loop = append(loop, chainRFH2(t, le, FmtRFH2, 546, 1208)...)
	}
	rfhLen := len(chainRFH2(t, le, FmtRFH2, 546, 1208))
	tests := []struct {
		name    string
		format  string
		enc     Encoding
		data    []byte
		headers int
		partial bool
		errOff  int
		trunc   bool
		substr  string
		body    Body
	}{
		{"header_announced_but_no_data", FmtRFH2, 546, nil, 0, false, 0, true, "truncated",
			Body{Format: FmtRFH2, Encoding: 546}},
		{"undefined_encoding_before_a_header", FmtDeadLetter, 0, dlh.Encode(le), 0, false, 0, false, "no integer byte order",
			Body{Length: DLHLen, Format: FmtDeadLetter}},
		{"broken_second_header", FmtDeadLetter, 546, badLen, 1, false, DLHLen + 8, false, "not a multiple of 4",
			Body{Offset: DLHLen, Length: len(badLen) - DLHLen, Format: FmtRFH2, Encoding: 273, CCSID: 1208}},
		{"truncated_rfh2_is_partial", FmtDeadLetter, 546, good[:len(good)-3], 2, true, DLHLen + RFH2FixedLen, true, "truncated",
			Body{Offset: len(good) - 3, Format: FmtRFH2, Encoding: 273, CCSID: 1208}},
		{"headers_announcing_each_other_stop_at_the_limit", FmtRFH2, 546, loop, MaxChainHeaders, false, MaxChainHeaders * rfhLen, false, "more than 32",
			Body{Offset: MaxChainHeaders * rfhLen, Length: rfhLen, Format: FmtRFH2, Encoding: 546, CCSID: 1208}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := WalkChain(tt.format, tt.enc, 0, tt.data)
			hdrWantErr(t, err, tt.errOff, tt.trunc, tt.substr)
			if len(c.Headers) != tt.headers {
				t.Fatalf("%d headers kept, want %d", len(c.Headers), tt.headers)
			}
			if tt.headers > 0 && c.Headers[len(c.Headers)-1].Partial != tt.partial {
				t.Errorf("last header Partial = %v", !tt.partial)
			}
			if c.Body != tt.body {
				t.Errorf("body %+v, want %+v", c.Body, tt.body)
			}
		})
	}
}

func TestHeaderKindString(t *testing.T) {
	for k, want := range map[HeaderKind]string{KindDLH: "MQDLH", KindXQH: "MQXQH", KindMDE: "MQMDE",
		KindRFH2: "MQRFH2", KindTM: "MQTM", 0: "unknown header"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), want)
		}
	}
}

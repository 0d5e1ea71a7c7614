package actions

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

var testNow = time.Date(2024, 1, 2, 3, 4, 5, 60_000_000, time.UTC)

func asfDLQOptions() DeadLetterOptions {
	return DeadLetterOptions{Reason: mqfmt.RCBackoutThresholdReached, DestQName: "ORDERS.IN", DestQMgrName: "QM1", Now: testNow}
}

func pad(s string, n int) string { return s + strings.Repeat(" ", n-len(s)) }

func TestToDeadLetter(t *testing.T) {
	for _, tc := range []struct {
		name      string
		enc       mqfmt.Encoding
		ccsid     int32
		bo        binary.ByteOrder
		wantEnc   mqfmt.Encoding
		wantCCSID int32
	}{
		{name: "R6a_little_endian_message_gets_a_little_endian_DLH", enc: 546, ccsid: 819, bo: binary.LittleEndian, wantEnc: 546, wantCCSID: 819},
		{name: "R6a_big_endian_message_gets_a_big_endian_DLH", enc: 273, ccsid: 1208, bo: binary.BigEndian, wantEnc: 273, wantCCSID: 1208},
		{name: "R6a_undefined_encoding_writes_big_endian_and_says_273", enc: 0, ccsid: 819, bo: binary.BigEndian, wantEnc: 273, wantCCSID: 819},
		{name: "R6a_UTF16_message_gets_a_UTF8_DLH", enc: 546, ccsid: 1200, bo: binary.LittleEndian, wantEnc: 546, wantCCSID: 1208},
		{name: "R6a_EBCDIC_message_gets_an_EBCDIC_DLH", enc: 785, ccsid: 500, bo: binary.BigEndian, wantEnc: 785, wantCCSID: 500},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := receivedMD()
			md.Encoding, md.CodedCharSetId = tc.enc, tc.ccsid
			data := []byte("payload")
			got, out, err := ToDeadLetter(md, data, asfDLQOptions())
			if err != nil {
				t.Fatal(err)
			}
			want := md
			want.Format, want.Encoding, want.CodedCharSetId, want.BackoutCount = mqfmt.FmtDeadLetter, tc.wantEnc, tc.wantCCSID, 0
			if got != want {
				t.Errorf("MQMD\n got %+v\nwant %+v", got, want)
			}
			d, err := mqfmt.DecodeDLHCCSID(out, 0, tc.bo, tc.wantCCSID)
			if err != nil {
				t.Fatal(err)
			}
			wantDLH := mqfmt.DLH{Version: 1, Reason: 2362, Encoding: tc.enc, CodedCharSetId: tc.ccsid, PutApplType: 28,
				DestQName: pad("ORDERS.IN", 48), DestQMgrName: pad("QM1", 48), Format: "MQSTR   ",
				PutApplName: pad("MQ JMS ConnectionConsumer", 28), PutDate: "20240102", PutTime: "03040506"}
			if d != wantDLH {
				t.Errorf("MQDLH\n got %+v\nwant %+v", d, wantDLH)
			}
			if !bytes.Equal(out[mqfmt.DLHLen:], data) {
				t.Errorf("body %q", out[mqfmt.DLHLen:])
			}
		})
	}
}

func TestToDeadLetterBytes(t *testing.T) {
	t.Run("R6a_EBCDIC_DestQName_bytes_are_invariant_code_points", func(t *testing.T) {
		md := receivedMD()
		md.Encoding, md.CodedCharSetId = 785, 37
		_, out, err := ToDeadLetter(md, nil, asfDLQOptions())
		if err != nil {
			t.Fatal(err)
		}
		want := "d6d9c4c5d9e24bc9d5" + strings.Repeat("40", 39) // ORDERS.IN
		if got := hex.EncodeToString(out[12:60]); got != want {
			t.Errorf("DestQName bytes %s", got)
		}
		if got := hex.EncodeToString(out[:4]); got != "c4d3c840" { // DLH
			t.Errorf("StrucId bytes %s, want EBCDIC \"DLH \"", got)
		}
	})
	t.Run("R6a_chain_leads_from_the_DLH_back_to_the_original_body", func(t *testing.T) {
		md := receivedMD()
		got, out, err := ToDeadLetter(md, []byte("payload"), asfDLQOptions())
		if err != nil {
			t.Fatal(err)
		}
		c, err := mqfmt.WalkChain(got.Format, got.Encoding, got.CodedCharSetId, out)
		if err != nil || c.DLH() == nil || c.Body.Format != mqfmt.FmtString || c.Body.Encoding != 546 || c.Body.CCSID != 819 || c.Body.Offset != mqfmt.DLHLen {
			t.Errorf("chain %+v err %v", c, err)
		}
	})
	t.Run("R6a_caller_names_another_putting_application", func(t *testing.T) {
		o := asfDLQOptions()
		o.PutApplType, o.PutApplName = mqfmt.ATUnix, "orders-consumer"
		_, out, err := ToDeadLetter(receivedMD(), nil, o)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := mqfmt.DecodeDLH(out, 0, binary.LittleEndian)
		if d.PutApplType != mqfmt.ATUnix || mqfmt.Trim(d.PutApplName) != "orders-consumer" {
			t.Errorf("DLH %+v", d)
		}
	})
	t.Run("R6a_name_with_no_form_in_the_EBCDIC_code_page_is_an_error", func(t *testing.T) {
		md := receivedMD()
		md.CodedCharSetId = 500
		o := asfDLQOptions()
		o.DestQName = "ORDERS€IN"
		if _, _, err := ToDeadLetter(md, nil, o); err == nil || !strings.Contains(err.Error(), "CCSID 500") {
			t.Errorf("err %v", err)
		}
	})
	t.Run("R6a_expiry_that_cannot_be_put_is_an_error", func(t *testing.T) {
		md := receivedMD()
		md.Expiry = 0
		if _, _, err := ToDeadLetter(md, nil, asfDLQOptions()); err == nil {
			t.Error("no error")
		}
	})
}

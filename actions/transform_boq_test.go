package actions

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// receivedMD is a descriptor as MQGET returns it for a non-JMS string message
// put on x86 Linux.
func receivedMD() mqfmt.MQMD {
	md := mqfmt.NewMQMD()
	md.Format = mqfmt.FmtString
	md.Encoding = mqfmt.EncodingNative
	md.CodedCharSetId = mqfmt.CCSIDISO88591
	md.BackoutCount = 5
	md.Expiry = 600
	md.Persistence = mqfmt.PerPersistent
	md.Priority = 4
	copy(md.MsgId[:], "AMQ QM1         msgid-01")
	copy(md.CorrelId[:], "correlation-identifier-1")
	md.ReplyToQ, md.ReplyToQMgr = "APP.REPLY", "QM2"
	md.PutApplType, md.PutApplName = mqfmt.ATUnix, "orders-producer"
	md.UserIdentifier = "app"
	md.PutDate, md.PutTime = "20240101", "12000000"
	return md
}

// jmsMessage returns a JMS message: an MQRFH2 with a jms folder in front of
// an MQSTR body, in byte order bo.
func jmsMessage(t *testing.T, enc mqfmt.Encoding, bo binary.ByteOrder, body string) (mqfmt.MQMD, []byte) {
	t.Helper()
	md := receivedMD()
	md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtRFH2, enc, mqfmt.CCSIDUTF8
	rfh := mqfmt.NewRFH2(enc, mqfmt.CCSIDUTF8, mqfmt.FmtString, mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", "queue:///ORDERS.IN")))
	b, err := rfh.Encode(bo)
	if err != nil {
		t.Fatal(err)
	}
	return md, append(b, body...)
}

func TestToBackoutQueueR5b(t *testing.T) {
	for _, tc := range []struct {
		name string
		enc  mqfmt.Encoding
		hdr  string // the expected 36-byte RFH2, hex
	}{
		{name: "R5b_little_endian_message_gets_a_big_endian_RFH2", enc: mqfmt.EncodingNative,
			hdr: "52464820" + "00000002" + "00000024" + "00000222" + "00000333" + hex.EncodeToString([]byte("MQSTR   ")) + "00000000" + "000004b8"},
		{name: "R5b_big_endian_message_gets_a_big_endian_RFH2", enc: mqfmt.EncodingNormal,
			hdr: "52464820" + "00000002" + "00000024" + "00000111" + "00000333" + hex.EncodeToString([]byte("MQSTR   ")) + "00000000" + "000004b8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := receivedMD()
			md.Encoding = tc.enc
			data := []byte("hello, poison")
			keep := bytes.Clone(data)
			got, out, err := ToBackoutQueue(md, data)
			if err != nil {
				t.Fatal(err)
			}
			if h := hex.EncodeToString(out[:mqfmt.RFH2FixedLen]); h != tc.hdr {
				t.Errorf("RFH2 bytes\n got %s\nwant %s", h, tc.hdr)
			}
			if !bytes.Equal(out[mqfmt.RFH2FixedLen:], keep) || !bytes.Equal(data, keep) {
				t.Errorf("body changed: %q (input now %q)", out[mqfmt.RFH2FixedLen:], data)
			}
			want := md
			want.Format, want.CodedCharSetId, want.Encoding, want.BackoutCount = mqfmt.FmtRFH2, 1208, 273, 0
			if got != want {
				t.Errorf("MQMD\n got %+v\nwant %+v", got, want)
			}
			checkChainAfterBOQ(t, got, out, tc.enc)
		})
	}
}

// checkChainAfterBOQ decodes the moved message as a reader of the BOQ would:
// the MQMD leads to the RFH2, whose fields lead to the original body.
func checkChainAfterBOQ(t *testing.T, md mqfmt.MQMD, data []byte, origEnc mqfmt.Encoding) {
	t.Helper()
	c, err := mqfmt.WalkChain(md.Format, md.Encoding, md.CodedCharSetId, data)
	if err != nil {
		t.Fatalf("WalkChain: %v", err)
	}
	r := c.RFH2s()
	if len(r) != 1 || r[0].StrucLength != 36 || r[0].NameValueCCSID != 1208 || r[0].Flags != 0 || len(r[0].Folders) != 0 {
		t.Fatalf("RFH2s = %+v", r)
	}
	if c.Body.Format != mqfmt.FmtString || c.Body.Encoding != origEnc || c.Body.CCSID != mqfmt.CCSIDISO88591 || c.Body.Offset != 36 {
		t.Errorf("body = %+v", c.Body)
	}
}

func TestToBackoutQueueR5a(t *testing.T) {
	jmsLE, dataLE := jmsMessage(t, mqfmt.EncodingNative, binary.LittleEndian, "body")
	jmsBE, dataBE := jmsMessage(t, mqfmt.EncodingNormal, binary.BigEndian, "body")
	dlhMD, dlhData := dlhThenRFH2(t)
	broken := receivedMD()
	broken.Format = mqfmt.FmtRFH2
	for _, tc := range []struct {
		name string
		md   mqfmt.MQMD
		data []byte
	}{
		{name: "R5a_little_endian_jms_message_keeps_its_RFH2", md: jmsLE, data: dataLE},
		{name: "R5a_big_endian_jms_message_keeps_its_RFH2", md: jmsBE, data: dataBE},
		{name: "R5a_RFH2_behind_a_dead_letter_header_counts", md: dlhMD, data: dlhData},
		{name: "R5a_announced_but_broken_RFH2_is_left_untouched", md: broken, data: []byte("RFH garbage")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keep := bytes.Clone(tc.data)
			got, out, err := ToBackoutQueue(tc.md, tc.data)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, keep) {
				t.Errorf("data changed")
			}
			want := tc.md
			want.BackoutCount = 0
			if got != want {
				t.Errorf("MQMD\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func dlhThenRFH2(t *testing.T) (mqfmt.MQMD, []byte) {
	t.Helper()
	md, rfh := jmsMessage(t, mqfmt.EncodingNative, binary.LittleEndian, "x")
	d := mqfmt.NewDLH()
	d.Format, d.Encoding, d.CodedCharSetId = mqfmt.FmtRFH2, mqfmt.EncodingNative, mqfmt.CCSIDUTF8
	md.Format = mqfmt.FmtDeadLetter
	return md, append(d.Encode(binary.LittleEndian), rfh...)
}

func TestToBackoutQueueEdges(t *testing.T) {
	t.Run("R5b_malformed_chain_without_RFH2_is_prefixed", func(t *testing.T) {
		md := receivedMD()
		md.Format = mqfmt.FmtDeadLetter
		got, out, err := ToBackoutQueue(md, []byte("not a DLH"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := mqfmt.DecodeRFH2(out, 0, binary.BigEndian)
		if err != nil || r.Format != mqfmt.FmtDeadLetter || got.Format != mqfmt.FmtRFH2 {
			t.Errorf("rfh %+v err %v md.Format %q", r, err, got.Format)
		}
	})
	t.Run("R5a_unlimited_expiry_stays_unlimited", func(t *testing.T) {
		md := receivedMD()
		md.Expiry = -1
		got, _, err := ToBackoutQueue(md, nil)
		if err != nil || got.Expiry != -1 {
			t.Errorf("Expiry %d err %v", got.Expiry, err)
		}
	})
	for _, e := range []int32{0, -2} {
		t.Run("R5_expiry_that_cannot_be_put_is_an_error", func(t *testing.T) {
			md := receivedMD()
			md.Expiry = e
			if _, _, err := ToBackoutQueue(md, nil); !errors.Is(err, ErrExpiry) {
				t.Errorf("Expiry %d: err %v", e, err)
			}
		})
	}
}

func TestRemainingExpiry(t *testing.T) {
	for _, tc := range []struct {
		name    string
		expiry  int32
		elapsed time.Duration
		want    int32
		ok      bool
	}{
		{"unlimited_stays_unlimited", -1, time.Hour, -1, true},
		{"decrements_in_tenths", 600, 12*time.Second + 50*time.Millisecond, 480, true},
		{"less_than_a_tenth_changes_nothing", 600, 99 * time.Millisecond, 600, true},
		{"used_up_has_expired", 600, time.Minute, 0, false},
		{"negative_elapsed_is_none", 600, -time.Second, 600, true},
		{"zero_expiry_is_expired", 0, 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := RemainingExpiry(tc.expiry, tc.elapsed)
			if got != tc.want || ok != tc.ok {
				t.Errorf("RemainingExpiry(%d, %v) = %d, %v; want %d, %v", tc.expiry, tc.elapsed, got, ok, tc.want, tc.ok)
			}
		})
	}
}

package mqfmt

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
	"testing"
)

// headerCCSIDs are the character sets issue cases run in: three EBCDIC code
// pages (US, International, open systems) and UTF-8.
var headerCCSIDs = []int32{37, 500, 1047, 1208}

// ebcdicName is "ORDERS.IN" in the invariant EBCDIC every Latin EBCDIC code
// page shares (IBM's character data conversion tables).
var ebcdicName = []byte{0xD6, 0xD9, 0xC4, 0xC5, 0xD9, 0xE2, 0x4B, 0xC9, 0xD5}

func TestR10b_HeaderCodecsAreOneToOne(t *testing.T) {
	for ccsid := range ebcdicFamily {
		c := codecFor(ccsid)
		if c == nil || len(c.enc) != 256 {
			t.Fatalf("CCSID %d: codec %v does not map 256 distinct characters", ccsid, c)
		}
		if c.dec[0x40] != ' ' || c.dec[0] != 0 {
			t.Errorf("CCSID %d: 0x40 is %q and 0x00 is %q, want blank and NUL", ccsid, c.dec[0x40], c.dec[0])
		}
		if got := c.text(ebcdicName); got != "ORDERS.IN" {
			t.Errorf("CCSID %d: invariant name reads %q", ccsid, got)
		}
	}
	for _, ccsid := range []int32{0, 819, 1208, 1252, 1200} {
		if codecFor(ccsid) != nil {
			t.Errorf("CCSID %d: header fields should be the bytes themselves", ccsid)
		}
	}
}

// charsetDLH is a dead-letter header as a queue manager writes it for a
// message that went to the DEADQ because ORDERS.IN was full.
func charsetDLH() DLH {
	d := NewDLH()
	d.Reason, d.Encoding, d.CodedCharSetId = RCQFull, EncodingS390, CCSIDInherit
	d.DestQName, d.DestQMgrName = "ORDERS.IN", "QM1"
	d.Format, d.PutApplType, d.PutApplName = FmtRFH2, ATUnix, "amqrmppa_$#@"
	d.PutDate, d.PutTime = "20261201", "08300012"
	return d
}

func TestR10b_HeadersWrittenAndReadInTheMessageCharset(t *testing.T) {
	for _, ccsid := range headerCCSIDs {
		for _, o := range hdrOrders {
			t.Run(o.name+"_"+itoa(ccsid), func(t *testing.T) {
				d := charsetDLH()
				b, err := d.AppendEncodeCCSID(nil, o.bo, ccsid)
				if err != nil {
					t.Fatal(err)
				}
				wantId, wantName := []byte(StrucIdDLH), []byte("ORDERS.IN")
				if ccsid != 1208 {
					wantId, wantName = []byte{0xC4, 0xD3, 0xC8, 0x40}, ebcdicName
				}
				if !bytes.Equal(b[:4], wantId) || !bytes.Equal(b[12:21], wantName) {
					t.Fatalf("StrucId % X and DestQName % X, want % X and % X", b[:4], b[12:21], wantId, wantName)
				}
				got, err := DecodeDLHCCSID(b, 0, o.bo, ccsid)
				if err != nil {
					t.Fatal(err)
				}
				if Trim(got.DestQName) != "ORDERS.IN" || got.Format != FmtRFH2 || Trim(got.PutApplName) != d.PutApplName {
					t.Errorf("decoded %+v", got)
				}
				again, _ := got.AppendEncodeCCSID(nil, o.bo, ccsid)
				if !bytes.Equal(again, b) {
					t.Errorf("re-encoded header differs at byte %d", hdrFirstDiff(again, b))
				}
				// Without the CCSID, the StrucId alone says EBCDIC.
				if blind, err := DecodeDLH(b, 0, o.bo); err != nil || Trim(blind.DestQName) != "ORDERS.IN" || blind.Format != FmtRFH2 {
					t.Errorf("DecodeDLH without the CCSID: %+v, %v", blind, err)
				}
			})
		}
	}
}

// charsetChain builds MQDLH, MQRFH2 and a body, every header in ccsid and
// byte order bo, as an EBCDIC JMS message looks on a DEADQ.
func charsetChain(t *testing.T, bo binary.ByteOrder, ccsid int32) []byte {
	t.Helper()
	d := charsetDLH()
	d.Encoding = EncodingFor(bo)
	b, err := d.AppendEncodeCCSID(nil, bo, ccsid)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRFH2(EncodingFor(bo), ccsid, FmtString, NewFolder("jms", NewElement("Dst", "queue:///ORDERS.IN")))
	if b, err = r.AppendEncodeCCSID(b, bo, ccsid); err != nil {
		t.Fatal(err)
	}
	return append(b, "body"...)
}

func TestR10b_ChainWalksHeadersInTheMessageCharset(t *testing.T) {
	for _, ccsid := range headerCCSIDs {
		for _, o := range hdrOrders {
			t.Run(o.name+"_"+itoa(ccsid), func(t *testing.T) {
				data := charsetChain(t, o.bo, ccsid)
				c, err := WalkChain(FmtDeadLetter, EncodingFor(o.bo), ccsid, data)
				if err != nil {
					t.Fatal(err)
				}
				if len(c.Headers) != 2 || c.DLH() == nil || c.Folder("jms").Get("Dst") != "queue:///ORDERS.IN" {
					t.Fatalf("chain %+v", c)
				}
				if Trim(c.DLH().DestQName) != "ORDERS.IN" || c.Body.Format != FmtString || c.Body.CCSID != ccsid {
					t.Errorf("DLH %+v, body %+v", c.DLH(), c.Body)
				}
				hdrCheckChain(t, c, data, nil)
			})
		}
	}
}

func TestR10b_XQHAndMDEInTheMessageCharset(t *testing.T) {
	for _, ccsid := range headerCCSIDs {
		for _, o := range hdrOrders {
			t.Run(o.name+"_"+itoa(ccsid), func(t *testing.T) {
				x := XQH{Version: 1, RemoteQName: "ORDERS.IN", RemoteQMgrName: "QM2", MsgDesc: NewMQMD()}
				x.MsgDesc.Format, x.MsgDesc.ReplyToQ, x.MsgDesc.PutApplName = FmtMDE, "REPLY.Q", "payroll"
				x.MsgDesc.Encoding, x.MsgDesc.CodedCharSetId = EncodingFor(o.bo), ccsid
				b, err := x.AppendEncodeCCSID(nil, o.bo, ccsid)
				if err != nil {
					t.Fatal(err)
				}
				m := NewMDE()
				m.Format, m.CodedCharSetId, m.Encoding = FmtString, ccsid, EncodingFor(o.bo)
				if b, err = m.AppendEncodeCCSID(b, o.bo, ccsid); err != nil {
					t.Fatal(err)
				}
				if ebcdic := ccsid != 1208; ebcdic != (b[XQHMsgDescOffset] == 0xD4) {
					t.Errorf("embedded MQMD StrucId % X in CCSID %d", b[XQHMsgDescOffset:XQHMsgDescOffset+4], ccsid)
				}
				c, err := WalkChain(FmtXmitQHeader, EncodingFor(o.bo), ccsid, b)
				if err != nil {
					t.Fatal(err)
				}
				got := c.Header(KindXQH).XQH
				if Trim(got.RemoteQName) != "ORDERS.IN" || Trim(got.MsgDesc.ReplyToQ) != "REPLY.Q" || c.Header(KindMDE).MDE.Format != FmtString {
					t.Errorf("decoded XQH %+v", got)
				}
				hdrCheckChain(t, c, b, nil)
			})
		}
	}
}

func TestR10b_CharacterOutsideTheCodePageIsAnError(t *testing.T) {
	d := charsetDLH()
	d.PutApplName = "billing€"
	if _, err := d.AppendEncodeCCSID(nil, binary.BigEndian, 37); err == nil || !strings.Contains(err.Error(), "CCSID 37") {
		t.Fatalf("err = %v, want the euro sign refused in CCSID 37", err)
	}
	if b, err := d.AppendEncodeCCSID(nil, binary.BigEndian, 1140); err != nil || b[128+7] != 0x9F {
		t.Fatalf("CCSID 1140 has the euro at 0x9F: % X, %v", b[128:136], err)
	}
}

func TestR10b_StrucIdInNeitherCharsetIsRejected(t *testing.T) {
	d := charsetDLH()
	b, _ := d.AppendEncodeCCSID(nil, binary.BigEndian, 500)
	b[2] = 0x00
	_, err := DecodeDLHCCSID(append([]byte("pad"), b...), 3, binary.BigEndian, 500)
	hdrWantErr(t, err, 3, false, "in ASCII or EBCDIC")
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }

func TestR10b_SavedEBCDICDeadLetterIsRecognised(t *testing.T) {
	for _, o := range hdrOrders {
		data := ebcdicChainSeed(o.bo)
		s, err := DecodeSaved(data)
		if err != nil || s.Chain.DLH() == nil || Trim(s.Chain.DLH().DestQName) != "ORDERS.IN" ||
			s.Chain.Folder("jms").Get("Dst") != "queue:///ORDERS.IN" || s.Chain.Body.Length != 4 {
			t.Fatalf("%s: %+v, %v", o.name, s.Chain, err)
		}
	}
}

package mqfmt

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// benchDeadLetteredJMS is a typical DEADQ message from a JMS application: an
// MQDLH, an MQRFH2 with mcd, jms and usr folders, and a 1 KiB body.
func benchDeadLetteredJMS(b *testing.B) []byte {
	d := chainDLH(FmtRFH2, 546, 1208)
	data := d.Encode(binary.LittleEndian)
	r := NewRFH2(546, 1208, "MQSTR",
		NewFolder("mcd", NewElement("Msd", "jms_text")),
		NewFolder("jms", NewElement("Dst", "queue:///ORDERS.IN"), NewElement("Tms", "1446139225436"),
			NewElement("Dlv", "2"), NewElement("Cid", "ID:414d5120514d31202020202020202020")),
		NewFolder("usr", NewElement("orderId", "A-10042"), NewTypedElement("attempt", "i4", "3"),
			NewTypedElement("urgent", "boolean", "1"), NewElement("region", "EMEA")),
	)
	rfh, err := r.Encode(binary.LittleEndian)
	if err != nil {
		b.Fatal(err)
	}
	return append(append(data, rfh...), bytes.Repeat([]byte("x"), 1024)...)
}

func BenchmarkDecodeChain(b *testing.B) {
	data := benchDeadLetteredJMS(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		c, err := WalkChain(FmtDeadLetter, 546, 819, data)
		if err != nil || len(c.Headers) != 2 || c.Body.Length != 1024 {
			b.Fatalf("chain %+v, %v", c, err)
		}
	}
}

func BenchmarkDecodeRFH2(b *testing.B) {
	data := corpusFile(b, "rfh2_jms.bin")
	b.ReportAllocs()
	b.SetBytes(712)
	for b.Loop() {
		if _, err := DecodeRFH2(data, 0, binary.BigEndian); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeBuiltRFH2(b *testing.B) {
	r := NewRFH2(546, 819, "MQSTR", NewFolder("mcd", NewElement("Msd", "jms_text")),
		NewFolder("jms", NewElement("Dst", "queue:///ORDERS.IN"), NewElement("Tms", "1446139225436")))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Encode(binary.BigEndian); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeChainEBCDIC is BenchmarkDecodeChain for an EBCDIC message
// (CCSID 500): the MQDLH's and the MQRFH2's character fields are decoded
// through the code page table instead of shared as bytes.
func BenchmarkDecodeChainEBCDIC(b *testing.B) {
	d := chainDLH(FmtRFH2, 546, 500)
	data, _ := d.AppendEncodeCCSID(nil, binary.LittleEndian, 500)
	r := NewRFH2(546, 500, "MQSTR", NewFolder("jms", NewElement("Dst", "queue:///ORDERS.IN")))
	data, _ = r.AppendEncodeCCSID(data, binary.LittleEndian, 500)
	data = append(data, bytes.Repeat([]byte{0xA7}, 1024)...)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		c, err := WalkChain(FmtDeadLetter, 546, 500, data)
		if err != nil || len(c.Headers) != 2 || c.Body.Length != 1024 {
			b.Fatalf("chain %+v, %v", c, err)
		}
	}
}

package demo

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func TestBuildWritesEachPayloadKindAsItsSenderWould(t *testing.T) {
	tests := []struct {
		kind            PayloadKind
		format          string
		encoding        mqfmt.Encoding
		ccsid, bodyCCID int32
		bodyHas         string
	}{
		{PayloadJMSText, mqfmt.FmtRFH2, mqfmt.EncodingNormal, 1208, 1208, "order ORD-000001"},
		{PayloadJMSJSON, mqfmt.FmtRFH2, mqfmt.EncodingNormal, 1208, 1208, `{"orderId":"ORD-000001"`},
		{PayloadJMSXML, mqfmt.FmtRFH2, mqfmt.EncodingNormal, 1208, 1208, `<order id="ORD-000001">`},
		{PayloadString, mqfmt.FmtString, mqfmt.EncodingNative, 819, 819, "order ORD-000001"},
		{PayloadEBCDIC, mqfmt.FmtString, mqfmt.EncodingS390, 500, 500, "ORD-000001"},
		{PayloadBinary, mqfmt.FmtNone, mqfmt.EncodingNative, 1208, 1208, "ORD-000001"},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			m := sample(t, tt.kind, true)
			if m.MD.Format != tt.format || m.MD.Encoding != tt.encoding || m.MD.CodedCharSetId != tt.ccsid {
				t.Fatalf("MQMD Format %q Encoding %d CCSID %d", m.MD.Format, m.MD.Encoding, m.MD.CodedCharSetId)
			}
			ch, err := mqfmt.WalkChain(m.MD.Format, m.MD.Encoding, m.MD.CodedCharSetId, m.Data)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Body.CCSID != tt.bodyCCID {
				t.Errorf("body CCSID %d", ch.Body.CCSID)
			}
			body := bodyText(m)
			if !strings.Contains(body, tt.bodyHas) || !strings.Contains(body, PoisonMarker) {
				t.Errorf("body %q", body)
			}
			if tt.kind.jms() {
				j, err := ch.RFH2s()[0].JMS()
				if err != nil || j.Dst != "queue:///ORDERS.IN" || j.Msd != "jms_text" || j.Dlv != 2 {
					t.Errorf("jms %+v err %v", j, err)
				}
			}
		})
	}
}

func TestBuildPoisonMarkerOnlyInPoison(t *testing.T) {
	for _, k := range payloadKinds {
		t.Run(string(k), func(t *testing.T) {
			if strings.Contains(bodyText(sample(t, k, false)), PoisonMarker) {
				t.Fatal("clean message carries the poison marker")
			}
		})
	}
}

func TestBuildBadRFH2DoesNotDecode(t *testing.T) {
	m := sample(t, PayloadBadRFH2, false)
	_, err := mqfmt.WalkChain(m.MD.Format, m.MD.Encoding, m.MD.CodedCharSetId, m.Data)
	if err == nil || m.MD.Format != mqfmt.FmtRFH2 {
		t.Fatalf("Format %q decoded: err %v", m.MD.Format, err)
	}
}

func TestBuildDeadLetterAsAChannelWritesIt(t *testing.T) {
	p := &ProducerSpec{Name: "HR.TO.QM2", Queue: "DLQ", Payload: PayloadString, Priority: -1,
		DeadLetter: &DeadLetterSpec{Reason: 2035, DestQ: "PAYROLL.IN", DestQMgr: "QM2"}}
	m, err := build(p, "PAY-000001", false, newRand(1, "t"), time.Unix(1700000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	if m.md.Format != mqfmt.FmtDeadLetter || m.md.Encoding != mqfmt.EncodingNative {
		t.Fatalf("MQMD Format %q Encoding %d", m.md.Format, m.md.Encoding)
	}
	d, err := mqfmt.DecodeDLH(m.data, 0, binary.LittleEndian)
	if err != nil {
		t.Fatal(err)
	}
	if d.Reason != 2035 || mqfmt.Trim(d.DestQName) != "PAYROLL.IN" || mqfmt.Trim(d.DestQMgrName) != "QM2" ||
		mqfmt.Trim(d.PutApplName) != "amqrmppa" || d.Format != mqfmt.FmtString || d.CodedCharSetId != 819 ||
		d.Encoding != mqfmt.EncodingNative || d.PutApplType != mqfmt.ATUnix {
		t.Fatalf("MQDLH %+v", d)
	}
	if got := string(m.data[mqfmt.DLHLen:]); !strings.HasPrefix(got, "payroll PAY-000001") {
		t.Fatalf("original data %q", got)
	}
}

func TestEBCDICEncodingRoundTrips(t *testing.T) {
	const text = "PAYMT ORD-000042 C01234 000000012345 POISON abc/xyz_.%#"
	got, err := mqfmt.DecodeText(toEBCDIC500(text), 500)
	if err != nil || got != text {
		t.Fatalf("%q, %v", got, err)
	}
	if b := toEBCDIC500("€"); len(b) != 1 || b[0] != toEBCDIC500("?")[0] {
		t.Fatalf("unmappable rune gives % x", b)
	}
}

func TestNounFromDestination(t *testing.T) {
	tests := []struct{ queue, topic, want string }{
		{"ORDERS.IN", "", "order"},
		{"INVOICE.OUT", "", "invoice"},
		{"BUS", "", "bus"},
		{"", "shop/prices", "shop"},
		{"...", "", "message"},
		{"%%.IN", "", "message"},
		{"Q_1.IN", "", "q_"},
	}
	for _, tt := range tests {
		t.Run(tt.want+"_"+tt.queue+tt.topic, func(t *testing.T) {
			if got := noun(&ProducerSpec{Queue: tt.queue, Topic: tt.topic}); got != tt.want {
				t.Fatalf("noun %q", got)
			}
		})
	}
}

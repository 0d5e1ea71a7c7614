package demo

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// PayloadKind is the kind of message a producer writes.
type PayloadKind string

// Payload kinds. The JMS kinds are what IBM MQ classes for JMS put: an
// MQRFH2 with mcd and jms folders in big-endian encoding (273) and CCSID
// 1208, then the body.
const (
	PayloadJMSText PayloadKind = "jms-text" // JMS TextMessage, plain text body
	PayloadJMSJSON PayloadKind = "jms-json" // JMS TextMessage, JSON body
	PayloadJMSXML  PayloadKind = "jms-xml"  // JMS TextMessage, XML body
	PayloadString  PayloadKind = "mqstr"    // MQI application: MQFMT_STRING, CCSID 819, Encoding 546
	PayloadBinary  PayloadKind = "binary"   // MQFMT_NONE, a binary record
	PayloadEBCDIC  PayloadKind = "ebcdic"   // mainframe text: MQFMT_STRING, CCSID 500, Encoding 785
	PayloadBadRFH2 PayloadKind = "bad-rfh2" // Format MQHRF2 whose header's StrucLength overruns the data
)

var payloadKinds = []PayloadKind{PayloadJMSText, PayloadJMSJSON, PayloadJMSXML, PayloadString,
	PayloadBinary, PayloadEBCDIC, PayloadBadRFH2}

// ParsePayloadKind reads a payload kind; "" is mqstr.
func ParsePayloadKind(s string) (PayloadKind, error) {
	if s == "" {
		return PayloadString, nil
	}
	for _, k := range payloadKinds {
		if string(k) == strings.ToLower(strings.TrimSpace(s)) {
			return k, nil
		}
	}
	names := make([]string, len(payloadKinds))
	for i, k := range payloadKinds {
		names[i] = string(k)
	}
	return "", fmt.Errorf("payload %q: want one of %s", s, strings.Join(names, ", "))
}

// jms reports whether the kind is written by a JMS application.
func (k PayloadKind) jms() bool {
	return k == PayloadJMSText || k == PayloadJMSJSON || k == PayloadJMSXML || k == PayloadBadRFH2
}

// PoisonMarker is the word a poison message's body carries.
const PoisonMarker = "POISON"

// message is one message a producer is about to put.
type message struct {
	md   mqfmt.MQMD
	data []byte
}

// body builds the application data of message seq: an order-like record
// named after the destination, with the poison marker when poison.
func body(kind PayloadKind, noun, id string, poison bool, rng *rand.Rand) string {
	amount := fmt.Sprintf("%d.%02d", 5+rng.IntN(995), rng.IntN(100))
	customer := fmt.Sprintf("C%05d", rng.IntN(100000))
	lines := 1 + rng.IntN(9)
	switch kind {
	case PayloadJMSJSON:
		note := ""
		if poison {
			note = `,"note":"` + PoisonMarker + `: quantity -1"`
		}
		return fmt.Sprintf(`{"%sId":"%s","customer":"%s","amount":"%s","currency":"EUR","lines":%d%s}`,
			noun, id, customer, amount, lines, note)
	case PayloadJMSXML:
		note := ""
		if poison {
			note = "<note>" + PoisonMarker + ": unknown SKU</note>"
		}
		return fmt.Sprintf(`<?xml version="1.0" encoding="UTF-8"?><%s id="%s"><customer>%s</customer><amount currency="EUR">%s</amount><lines>%d</lines>%s</%s>`,
			noun, id, customer, amount, lines, note, noun)
	case PayloadEBCDIC:
		// A fixed-width record as a COBOL program writes it.
		flag := "OK    "
		if poison {
			flag = PoisonMarker
		}
		return fmt.Sprintf("%-8.8s%-20.20s%-8s%012s%s", strings.ToUpper(noun), id, customer, strings.ReplaceAll(amount, ".", ""), flag)
	}
	text := fmt.Sprintf("%s %s for %s: %d lines, %s EUR", noun, id, customer, lines, amount)
	if poison {
		text += " " + PoisonMarker
	}
	return text
}

// build makes the descriptor and data of one message. The context fields are
// the producer's to fill.
func build(p *ProducerSpec, id string, poison bool, rng *rand.Rand, now time.Time) (message, error) {
	md := mqfmt.NewMQMD()
	md.Persistence, md.Report, md.Priority = p.Persistence, p.Report, p.Priority
	md.ReplyToQ, md.ReplyToQMgr = p.ReplyTo, p.ReplyToQMgr
	if p.Expiry > 0 {
		md.Expiry = int32(p.Expiry / (100 * time.Millisecond))
	}
	text := body(p.Payload, noun(p), id, poison, rng)
	var m message
	var err error
	switch p.Payload {
	case PayloadJMSText, PayloadJMSJSON, PayloadJMSXML, PayloadBadRFH2:
		m, err = jmsMessage(md, p, text, now)
	case PayloadBinary:
		md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtNone, mqfmt.EncodingNative, mqfmt.CCSIDUTF8
		m = message{md: md, data: binaryRecord(id, poison, rng)}
	case PayloadEBCDIC:
		md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtString, mqfmt.EncodingS390, 500
		m = message{md: md, data: toEBCDIC500(text)}
	default:
		md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtString, mqfmt.EncodingNative, mqfmt.CCSIDISO88591
		m = message{md: md, data: []byte(text)}
	}
	if err != nil || p.DeadLetter == nil {
		return m, err
	}
	return deadLettered(m, p.DeadLetter, now), nil
}

// noun names the records after the destination: ORDERS.IN → "order".
func noun(p *ProducerSpec) string {
	t := p.Queue
	if p.Topic != "" {
		t = p.Topic
	}
	if p.DeadLetter != nil {
		t = p.DeadLetter.DestQ
	}
	parts := strings.FieldsFunc(t, func(r rune) bool { return r == '.' || r == '/' || r == '#' || r == '+' })
	if len(parts) == 0 {
		return "message"
	}
	// Keep what is valid in an XML element name and a JSON key alike.
	n := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r == '_' {
			return r
		}
		return -1
	}, strings.ToLower(parts[0]))
	if n == "" {
		return "message"
	}
	if len(n) > 3 && strings.HasSuffix(n, "s") {
		n = n[:len(n)-1]
	}
	return n
}

// jmsMessage wraps text in the MQRFH2 IBM MQ classes for JMS writes for a
// TextMessage; bad-rfh2 then damages the header's StrucLength.
func jmsMessage(md mqfmt.MQMD, p *ProducerSpec, text string, now time.Time) (message, error) {
	md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtRFH2, mqfmt.EncodingNormal, mqfmt.CCSIDUTF8
	dst := "queue:///" + p.Queue
	if p.Topic != "" {
		dst = "topic://" + p.Topic
	}
	dlv := "1"
	if p.Persistence == mqfmt.PerPersistent {
		dlv = "2"
	}
	jms := mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", dst),
		mqfmt.NewTypedElement("Tms", "i8", strconv.FormatInt(now.UnixMilli(), 10)),
		mqfmt.NewTypedElement("Dlv", "i4", dlv))
	if p.ReplyTo != "" {
		jms.Elements = append(jms.Elements, mqfmt.NewElement("Rto", "queue://"+p.ReplyToQMgr+"/"+p.ReplyTo))
	}
	r := mqfmt.NewRFH2(mqfmt.EncodingNormal, mqfmt.CCSIDUTF8, mqfmt.FmtString,
		mqfmt.NewFolder("mcd", mqfmt.NewElement("Msd", "jms_text")), jms,
		mqfmt.NewFolder("usr", mqfmt.NewElement("source", p.Name)))
	hdr, err := r.Encode(binary.BigEndian)
	if err != nil {
		return message{}, fmt.Errorf("build MQRFH2: %w", err)
	}
	if p.Payload == PayloadBadRFH2 {
		// A header whose StrucLength claims more than the message holds, as
		// a truncating bridge leaves it: no parser can find the body.
		binary.BigEndian.PutUint32(hdr[8:], uint32(len(hdr)+len(text)+4096))
	}
	return message{md: md, data: append(hdr, text...)}, nil
}

// binaryRecord is a small binary record: magic, length, the id, random bytes,
// and the poison marker inside when poison.
func binaryRecord(id string, poison bool, rng *rand.Rand) []byte {
	b := make([]byte, 0, 96)
	b = append(b, 'S', 'C', 'N', 0x01)
	b = binary.BigEndian.AppendUint16(b, uint16(len(id)))
	b = append(b, id...)
	for range 24 {
		b = append(b, byte(rng.Uint32()))
	}
	if poison {
		b = append(b, 0x00, 0xFF)
		b = append(b, PoisonMarker...)
	}
	return b
}

// deadLettered turns m into the message a receiving channel puts on a
// dead-letter queue: an MQDLH (native encoding, as the queue manager writes
// it) describing the original, then the original data; the MQMD keeps the
// original's context and describes the MQDLH.
func deadLettered(m message, d *DeadLetterSpec, now time.Time) message {
	appl := d.PutAppl
	if appl == "" {
		appl = "amqrmppa"
	}
	h := mqfmt.NewDLH()
	h.Reason = mqfmt.Reason(d.Reason)
	h.DestQName, h.DestQMgrName = d.DestQ, d.DestQMgr
	h.Encoding, h.CodedCharSetId, h.Format = m.md.Encoding, m.md.CodedCharSetId, m.md.Format
	h.PutApplType, h.PutApplName = mqfmt.ATUnix, appl
	h.PutDate, h.PutTime = mqfmt.FormatPutTime(now)
	data := h.AppendEncode(make([]byte, 0, mqfmt.DLHLen+len(m.data)), binary.LittleEndian)
	md := m.md
	md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtDeadLetter, mqfmt.EncodingNative, mqfmt.CCSIDUTF8
	return message{md: md, data: append(data, m.data...)}
}

// ebcdic500 maps runes to CCSID 500 bytes: the inverse of mqfmt's decode
// table, so that what the demo writes is what the dashboard decodes.
var ebcdic500 = sync.OnceValue(func() map[rune]byte {
	m := make(map[rune]byte, 256)
	for b := 255; b >= 0; b-- {
		s, err := mqfmt.DecodeText([]byte{byte(b)}, 500)
		if r := []rune(s); err == nil && len(r) == 1 {
			m[r[0]] = byte(b)
		}
	}
	return m
})

// toEBCDIC500 encodes s in CCSID 500; runes it lacks become '?'.
func toEBCDIC500(s string) []byte {
	t := ebcdic500()
	out := make([]byte, 0, len(s))
	for _, r := range s {
		b, ok := t[r]
		if !ok {
			b = t['?']
		}
		out = append(out, b)
	}
	return out
}

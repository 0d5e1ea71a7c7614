package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// maxPrettyBody is the largest text body decode lays out as JSON or XML;
// larger ones are shown as they are, so memory stays a small multiple of the
// input.
const maxPrettyBody = 4 << 20

// decodedMsg is one decoded message, for text and JSON output alike. The
// body's text or bytes are kept apart and streamed by the writers, so that
// a large body is never held twice as a hex dump or a JSON string.
type decodedMsg struct {
	Index   int             `json:"index"`
	MQMD    []mqfmt.Field   `json:"mqmd,omitempty"`
	Headers []decodedHeader `json:"headers"`
	Event   []mqfmt.Field   `json:"event,omitempty"` // an instrumentation event's PCF (cmd_decode_event.go)
	Body    decodedBody     `json:"body"`
	Note    string          `json:"note,omitempty"`
	Error   string          `json:"error,omitempty"`

	hex  []byte // the body, shown as a hex dump
	text string // the body as decoded (and laid out) text, unsanitised
}

type decodedHeader struct {
	Kind    string        `json:"kind"`
	Offset  int           `json:"offset"`
	Length  int           `json:"length"`
	Partial bool          `json:"partial,omitempty"`
	Fields  []mqfmt.Field `json:"fields"`
}

// decodedBody describes the body. In JSON, Text (the exact decoded text) or
// Hex (the amqsbcg-style dump) follows these fields; the test reads them back.
type decodedBody struct {
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	Format string `json:"format"`
	CCSID  int32  `json:"ccsid"`
	Kind   string `json:"kind"`
	Text   string `json:"text,omitempty"`
	Hex    string `json:"hex,omitempty"`
}

func (m *decodedMsg) fromChain(data []byte, ch mqfmt.Chain, o decodeOpts) {
	m.Headers = []decodedHeader{}
	for i := range ch.Headers {
		h := &ch.Headers[i]
		m.Headers = append(m.Headers, decodedHeader{Kind: h.Kind.String(), Offset: h.Offset, Length: h.Length, Partial: h.Partial, Fields: mqfmt.DescribeHeader(h)})
	}
	b := ch.Body
	start := min(max(b.Offset, 0), len(data))
	end := min(start+max(b.Length, 0), len(data))
	body := data[start:end]
	m.Body = decodedBody{Offset: b.Offset, Length: len(body), Format: mqfmt.Trim(b.Format), CCSID: b.CCSID}
	if len(body) == 0 {
		m.Body.Kind = "empty"
		return
	}
	m.Event = decodeEventBody(body, b)
	bt := decodeBodyBounded(body, b.CCSID, b.Encoding)
	if o.hex || bt.Kind == mqfmt.KindBinary {
		m.Body.Kind = "binary"
		m.hex = body
		return
	}
	m.Body.Kind = bt.Kind.String()
	m.text = bt.Text
	if len(body) > maxPrettyBody {
		return
	}
	if p, err := mqfmt.Pretty(bt.Text, bt.Kind); err == nil {
		m.text = p
	} else if errors.Is(err, mqfmt.ErrTruncated) {
		m.text = p + "\n(cut off)"
	}
}

// classifyPrefix is how much of a large body decides text or binary.
const classifyPrefix = 64 << 10

// decodeBodyBounded is mqfmt.DecodeBody with memory kept near the body's
// size for large bodies: the first classifyPrefix bytes decide whether it
// is binary (then nothing is decoded: a binary body is shown as a dump,
// and decoding 100 MB of it would take hundreds of megabytes of U+FFFD),
// and a UTF-8 body is used as it is instead of copied (its bytes are not
// changed while decode runs; bad bytes are shown as \xNN escapes).
func decodeBodyBounded(body []byte, ccsid int32, enc mqfmt.Encoding) mqfmt.BodyText {
	if len(body) <= maxPrettyBody {
		return mqfmt.DecodeBody(body, ccsid, enc)
	}
	probe := mqfmt.DecodeBody(body[:classifyPrefix], ccsid, enc)
	switch {
	case probe.Kind == mqfmt.KindBinary:
		return probe
	case ccsid == mqfmt.CCSIDUTF8:
		return mqfmt.BodyText{Kind: probe.Kind, Text: unsafe.String(&body[0], len(body))}
	}
	bt := mqfmt.DecodeBody(body, ccsid, enc)
	bt.Kind = probe.Kind
	return bt
}

// writeDecoded writes the messages as text or JSON through the terminal-safe
// writers: nothing a message carries can reach the terminal as a control.
func writeDecoded(w io.Writer, msgs []decodedMsg, err error, asJSON bool) {
	if asJSON {
		js := mqfmt.NewJSONSafeWriter(w)
		bw := bufio.NewWriterSize(js, 64<<10)
		writeDecodedJSON(bw, msgs, err)
		_ = bw.Flush()
		return
	}
	sw := mqfmt.NewSafeWriter(w)
	bw := bufio.NewWriterSize(sw, 64<<10)
	for i := range msgs {
		writeDecodedText(bw, &msgs[i], len(msgs) > 1)
	}
	_ = bw.Flush()
	_ = sw.Flush()
}

func writeDecodedText(w *bufio.Writer, m *decodedMsg, numbered bool) {
	if numbered {
		fmt.Fprintf(w, "===== message %d =====\n", m.Index)
	}
	if m.Note != "" {
		fmt.Fprintf(w, "note: %s\n", mqfmt.Sanitize(m.Note))
	}
	if len(m.MQMD) > 0 {
		fmt.Fprintln(w, "MQMD")
		writeFields(w, m.MQMD)
	}
	for _, h := range m.Headers {
		partial := ""
		if h.Partial {
			partial = ", truncated"
		}
		fmt.Fprintf(w, "%s at offset %d (%d bytes%s)\n", mqfmt.Sanitize(h.Kind), h.Offset, h.Length, partial)
		writeFields(w, h.Fields)
	}
	if len(m.Event) > 0 {
		fmt.Fprintln(w, "Event (PCF, MQFMT_EVENT)")
		writeFields(w, m.Event)
	}
	b := m.Body
	fmt.Fprintf(w, "Body at offset %d: %d bytes, format '%s', CCSID %d (%s), %s\n", b.Offset, b.Length,
		mqfmt.Sanitize(b.Format), b.CCSID, mqfmt.CCSIDName(b.CCSID), b.Kind)
	switch {
	case m.hex != nil:
		streamHex(w, m.hex, b.CCSID, nil)
		w.WriteByte('\n')
	case m.text != "":
		// Unsanitised: w is a SafeWriter underneath, which sanitises the
		// text a buffer at a time instead of copying it whole.
		w.WriteString(m.text)
		w.WriteByte('\n')
	}
	if m.Error != "" {
		fmt.Fprintf(w, "error: %s\n", mqfmt.Sanitize(m.Error))
	}
}

// streamHex writes HexDump(data, ccsid) line by line; each line goes through
// quote (a JSON string escape) when it is not nil.
func streamHex(w *bufio.Writer, data []byte, ccsid int32, quote func(*bufio.Writer, string)) {
	for i := range mqfmt.HexDumpLines(len(data)) {
		line := mqfmt.HexDumpLine(data, i, ccsid)
		if quote == nil {
			if i > 0 {
				w.WriteByte('\n')
			}
			w.WriteString(line)
			continue
		}
		if i > 0 {
			w.WriteString(`\n`)
		}
		quote(w, line)
	}
}

func writeFields(w io.Writer, fs []mqfmt.Field) {
	for _, f := range fs {
		name, value := mqfmt.Sanitize(f.Name), mqfmt.Sanitize(f.Value)
		if f.Meaning != "" {
			fmt.Fprintf(w, "  %-20s %s  (%s)\n", name, value, mqfmt.Sanitize(f.Meaning))
		} else {
			fmt.Fprintf(w, "  %-20s %s\n", name, value)
		}
	}
}

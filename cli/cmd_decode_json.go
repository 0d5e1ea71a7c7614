package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// jsonChunk bounds the piece of a body text escaped at once, so that a large
// text body is streamed into its JSON string, not copied whole.
const jsonChunk = 32 << 10

// writeDecodedJSON writes {"messages": [...], "error": ...}, indented as
// encoding/json would. Every value but the body's text or dump is marshalled
// whole; that one is streamed, so memory stays proportional to the input.
func writeDecodedJSON(w *bufio.Writer, msgs []decodedMsg, err error) {
	w.WriteString("{\n  \"messages\": [")
	for i := range msgs {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteString("\n    ")
		writeMsgJSON(w, &msgs[i])
	}
	if len(msgs) > 0 {
		w.WriteString("\n  ")
	}
	w.WriteByte(']')
	if err != nil {
		jsonField(w, "  ", "error", err.Error())
	}
	w.WriteString("\n}\n")
}

func writeMsgJSON(w *bufio.Writer, m *decodedMsg) {
	const in = "      "
	w.WriteString("{\n" + in + `"index": ` + strconv.Itoa(m.Index))
	if len(m.MQMD) > 0 {
		jsonField(w, in, "mqmd", unquoteFields(m.MQMD))
	}
	headers := make([]decodedHeader, len(m.Headers))
	for i, h := range m.Headers {
		h.Fields = unquoteFields(h.Fields)
		headers[i] = h
	}
	jsonField(w, in, "headers", headers)
	if len(m.Event) > 0 {
		jsonField(w, in, "event", m.Event)
	}
	b := m.Body
	w.WriteString(",\n" + in + `"body": {`)
	w.WriteString("\n" + in + `  "offset": ` + strconv.Itoa(b.Offset))
	jsonField(w, in+"  ", "length", b.Length)
	jsonField(w, in+"  ", "format", b.Format)
	jsonField(w, in+"  ", "ccsid", b.CCSID)
	jsonField(w, in+"  ", "kind", b.Kind)
	switch {
	case m.hex != nil:
		w.WriteString(",\n" + in + `  "hex": "`)
		streamHex(w, m.hex, b.CCSID, newJSONInner().write)
		w.WriteByte('"')
	case m.text != "":
		w.WriteString(",\n" + in + `  "text": "`)
		esc := newJSONInner()
		for t := m.text; t != ""; {
			n := min(len(t), jsonChunk)
			for n < len(t) && n > 0 && !utf8.RuneStart(t[n]) {
				n--
			}
			esc.write(w, t[:n])
			t = t[n:]
		}
		w.WriteByte('"')
	}
	w.WriteString("\n" + in + "}")
	if m.Note != "" {
		jsonField(w, in, "note", m.Note)
	}
	if m.Error != "" {
		jsonField(w, in, "error", m.Error)
	}
	w.WriteString("\n    }")
}

// jsonField writes `,\n<indent>"name": <v>` with v marshalled and indented.
func jsonField(w *bufio.Writer, indent, name string, v any) {
	b, _ := json.MarshalIndent(v, indent, "  ")
	w.WriteString(",\n" + indent + `"` + name + `": `)
	w.Write(b)
}

// jsonInner writes strings as the inside of a JSON string, escaped by
// encoding/json (bad UTF-8 becomes U+FFFD, U+2028 and U+2029 are escaped)
// but with SetEscapeHTML(false): <, > and & are safe outside HTML and a
// reader of the dump should see them. One is made per output and reused
// for every dump line and text chunk.
type jsonInner struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newJSONInner() *jsonInner {
	j := &jsonInner{}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

// write writes s escaped, without its quotes.
func (j *jsonInner) write(w *bufio.Writer, s string) {
	j.buf.Reset()
	_ = j.enc.Encode(s) // a string always encodes: "...", then a newline
	b := j.buf.Bytes()
	w.Write(b[1 : len(b)-2])
}

// unquoteFields drops the quotes the text output puts around MQCHAR values
// ('MQDEAD', two quotes for blanks): in JSON the string is the value, and a
// reader would otherwise have to strip them. Only those quotes start a value.
func unquoteFields(fs []mqfmt.Field) []mqfmt.Field {
	out := make([]mqfmt.Field, len(fs))
	for i, f := range fs {
		if v := f.Value; len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
			f.Value = v[1 : len(v)-1]
		}
		out[i] = f
	}
	return out
}

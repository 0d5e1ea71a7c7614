package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// decodedMsg is one decoded message, for text and JSON output alike.
type decodedMsg struct {
	Index   int             `json:"index"`
	MQMD    []mqfmt.Field   `json:"mqmd,omitempty"`
	Headers []decodedHeader `json:"headers"`
	Body    decodedBody     `json:"body"`
	Note    string          `json:"note,omitempty"`
	Error   string          `json:"error,omitempty"`
}

type decodedHeader struct {
	Kind    string        `json:"kind"`
	Offset  int           `json:"offset"`
	Length  int           `json:"length"`
	Partial bool          `json:"partial,omitempty"`
	Fields  []mqfmt.Field `json:"fields"`
}

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
	bt := mqfmt.DecodeBody(body, b.CCSID, b.Encoding)
	m.Body.Kind = bt.Kind.String()
	if len(body) == 0 {
		m.Body.Kind = "empty"
		return
	}
	if o.hex || bt.Kind == mqfmt.KindBinary {
		m.Body.Kind = "binary"
		m.Body.Hex = mqfmt.HexDump(body, b.CCSID)
		return
	}
	text := bt.Text
	if p, err := mqfmt.Pretty(text, bt.Kind); err == nil {
		text = p
	} else if errors.Is(err, mqfmt.ErrTruncated) {
		text = p + "\n(cut off)"
	}
	m.Body.Text = mqfmt.SanitizeMultiline(text)
}

func writeDecodedText(w io.Writer, m *decodedMsg, numbered bool) {
	if numbered {
		fmt.Fprintf(w, "===== message %d =====\n", m.Index)
	}
	if m.Note != "" {
		fmt.Fprintf(w, "note: %s\n", m.Note)
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
		fmt.Fprintf(w, "%s at offset %d (%d bytes%s)\n", h.Kind, h.Offset, h.Length, partial)
		writeFields(w, h.Fields)
	}
	b := m.Body
	fmt.Fprintf(w, "Body at offset %d: %d bytes, format '%s', CCSID %d (%s), %s\n", b.Offset, b.Length, b.Format, b.CCSID, mqfmt.CCSIDName(b.CCSID), b.Kind)
	if b.Hex != "" {
		fmt.Fprint(w, b.Hex)
		if !strings.HasSuffix(b.Hex, "\n") {
			fmt.Fprintln(w)
		}
	} else if b.Text != "" {
		fmt.Fprintln(w, b.Text)
	}
	if m.Error != "" {
		fmt.Fprintf(w, "error: %s\n", m.Error)
	}
}

func writeFields(w io.Writer, fs []mqfmt.Field) {
	for _, f := range fs {
		if f.Meaning != "" {
			fmt.Fprintf(w, "  %-20s %s  (%s)\n", f.Name, f.Value, f.Meaning)
		} else {
			fmt.Fprintf(w, "  %-20s %s\n", f.Name, f.Value)
		}
	}
}

func writeDecodedJSON(w io.Writer, msgs []decodedMsg, err error) {
	out := struct {
		Messages []decodedMsg `json:"messages"`
		Error    string       `json:"error,omitempty"`
	}{Messages: msgs}
	if out.Messages == nil {
		out.Messages = []decodedMsg{}
	}
	if err != nil {
		out.Error = mqfmt.Sanitize(err.Error())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
}

package mqfmt

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// amqsbcg (IBM's browse sample) prints each message as a "****Message
// descriptor****" section of "Name : value" pairs, then a "****   Message   ****"
// section of offset-prefixed hex lines. qload loads such output (ReadBCGMessage);
// so does this reader, which lets the dashboard open dumps people paste into
// tickets and blog posts.

const bcgDescriptor = "****Message descriptor****"

// nextBCG reads one message of amqsbcg output.
func (r *QLoadReader) nextBCG() (QLoadMessage, error) {
	for {
		line, err := r.lines.next()
		if err != nil {
			return QLoadMessage{}, err // io.EOF: no more messages
		}
		if bytes.HasPrefix(line, []byte(bcgDescriptor)) {
			break
		}
	}
	start := r.lines.no
	m := QLoadMessage{MD: QLoadDefaultMQMD(), HasMQMD: true}
	if err := r.bcgDescriptor(&m.MD, start); err != nil {
		return QLoadMessage{}, err
	}
	if err := r.bcgData(&m, start); err != nil {
		return QLoadMessage{}, err
	}
	return m, nil
}

// bcgToken is one lexeme of a descriptor line: a name, a bare value, a quoted
// value (quotes removed) or a hex value X'...' (hex kept, quotes removed).
type bcgToken struct {
	text []byte
	col  int // 1-based
	hex  bool
}

// bcgDescriptor reads "Name : value" pairs, which may span lines (amqsbcg puts
// AccountingToken's value on the next line), up to the next "****" line. As in
// qload, Version is kept as printed; qload additionally downgrades it to 1 when
// the group fields hold their defaults, which matters only for the MQPUT it
// does next, not for showing the message.
func (r *QLoadReader) bcgDescriptor(md *MQMD, start int) error {
	var pending *qloadField
	for {
		line, err := r.lines.next()
		if err == io.EOF {
			return &QLoadError{Line: r.lines.no, Err: io.ErrUnexpectedEOF,
				Msg: fmt.Sprintf("the file ends inside the message descriptor that starts at line %d", start)}
		}
		if err != nil {
			return err
		}
		if bytes.HasPrefix(line, []byte("****")) {
			if pending != nil {
				return qloadErr(r.lines.no, 1, "MQMD field %s has no value", pending.name)
			}
			r.lines.back()
			dropV2Fields(md)
			return nil
		}
		for p := 0; ; {
			want := 0
			if pending != nil && pending.kind != qfLong {
				want = pending.size
			}
			tok, next, err := bcgNextToken(line, p, want)
			if err != nil {
				return qloadErr(r.lines.no, next+1, "%v", err)
			}
			if tok.text == nil {
				break
			}
			p = next
			if pending == nil {
				f, ok := qloadByName[string(tok.text)]
				if !ok || tok.hex {
					return qloadErr(r.lines.no, tok.col, "unknown MQMD field \"%s\"", sanitizeShort(clip(tok.text, 32)))
				}
				pending = f
				continue
			}
			if err := setBCGField(md, pending, tok); err != nil {
				return qloadErr(r.lines.no, tok.col, "%v", err)
			}
			pending = nil
		}
	}
}

func setBCGField(md *MQMD, f *qloadField, tok bcgToken) error {
	switch {
	case f.kind == qfIgnore:
		return nil
	case f.kind == qfByte && !tok.hex:
		return fmt.Errorf("%s: want a hex value X'...'", f.name)
	case f.kind != qfByte && tok.hex:
		return fmt.Errorf("%s: unexpected hex value", f.name)
	}
	val := tok.text
	if i := bytes.IndexByte(val, 0); i >= 0 {
		val = val[:i]
	}
	return setField(md, f, val)
}

// bcgNextToken returns the token at or after line[p:] and the position after
// it; tok.text is nil at the end of the line or at a "*" comment (amqsbcg's
// "** Identity Context"). Separators are blanks, tabs and colons, as in qload's
// getlex. want is the length of the character field whose value is expected:
// a quoted value of exactly that length is taken whole even if it contains a
// quote, since amqsbcg prints fields unescaped.
func bcgNextToken(line []byte, p, want int) (bcgToken, int, error) {
	for p < len(line) && (line[p] == ' ' || line[p] == ':' || line[p] == '\t' || line[p] == '\r') {
		p++
	}
	if p >= len(line) || line[p] == '*' {
		return bcgToken{}, len(line), nil
	}
	col := p + 1
	switch {
	case line[p] == '\'':
		end := p + 1 + want
		if want == 0 || end >= len(line) || line[end] != '\'' {
			end = bytes.IndexByte(line[p+1:], '\'')
			if end < 0 {
				return bcgToken{}, p, fmt.Errorf("unterminated quoted value")
			}
			end += p + 1
		}
		return bcgToken{text: line[p+1 : end : end], col: col}, end + 1, nil
	case line[p] == 'X' && p+1 < len(line) && line[p+1] == '\'':
		end := bytes.IndexByte(line[p+2:], '\'')
		if end < 0 {
			return bcgToken{}, p, fmt.Errorf("unterminated hex value")
		}
		end += p + 2
		return bcgToken{text: line[p+2 : end : end], col: col, hex: true}, end + 1, nil
	}
	end := p
	for end < len(line) && line[end] != ' ' && line[end] != ':' && line[end] != '\t' && line[end] != '\r' {
		end++
	}
	return bcgToken{text: line[p:end:end], col: col}, end, nil
}

// bcgData reads the data section: "length - N bytes" (or "N of M bytes"), then
// lines "OOOOOOOO:  hhhh hhhh ... 'text'". Offsets must follow on without a gap:
// a missing line would silently shift every header field after it.
func (r *QLoadReader) bcgData(m *QLoadMessage, start int) error {
	if err := r.bcgFindData(start); err != nil {
		return err
	}
	declared, data := -1, r.scratch[:0]
	for {
		line, err := r.lines.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		trimmed := bytes.TrimLeft(line, " ")
		if len(trimmed) == 0 {
			continue
		}
		if n, ok := bcgLength(trimmed); ok {
			declared = n
			continue
		}
		off, p, ok := bcgOffset(line)
		if !ok {
			if bytes.HasPrefix(line, []byte(bcgDescriptor)) {
				r.lines.back()
			}
			break
		}
		if off != len(data) {
			return qloadErr(r.lines.no, 1, "data line at offset %08X, expected %08X: a line is missing or repeated", off, len(data))
		}
		if data, p, err = appendHexRun(data, line, p, true, '\''); err != nil {
			return qloadErr(r.lines.no, p+1, "badly formed hex: %v", err)
		}
		if len(data) > r.opts.MaxMessage {
			return &QLoadError{Line: r.lines.no, Err: ErrQLoadTooLarge,
				Msg: fmt.Sprintf("the message that starts at line %d is larger than the %d-byte limit", start, r.opts.MaxMessage)}
		}
	}
	m.Data = r.keep(data)
	m.DumpLength = len(m.Data)
	if declared >= 0 {
		if declared < len(m.Data) {
			return qloadErr(r.lines.no, 0, "the dump shows %d bytes but declares a length of %d", len(m.Data), declared)
		}
		m.DumpLength = declared
	}
	return nil
}

// bcgFindData skips from the end of the descriptor (a "****" line) to the
// "****   Message      ****" line, passing over any other section such as the
// message properties newer amqsbcg versions print.
func (r *QLoadReader) bcgFindData(start int) error {
	for {
		line, err := r.lines.next()
		if err == io.EOF {
			return &QLoadError{Line: r.lines.no, Err: io.ErrUnexpectedEOF,
				Msg: fmt.Sprintf("the message that starts at line %d has no \"****   Message   ****\" section", start)}
		}
		if err != nil {
			return err
		}
		if string(bytes.ReplaceAll(bytes.TrimRight(line, " "), []byte(" "), nil)) == "****Message****" {
			return nil
		}
		if bytes.HasPrefix(line, []byte(bcgDescriptor)) {
			return qloadErr(r.lines.no, 1, "the message that starts at line %d has no \"****   Message   ****\" section", start)
		}
	}
}

// bcgLength parses "length - N bytes" and "length - N of M bytes" (newer
// amqsbcg), returning M, the length of the whole message, when present.
func bcgLength(s []byte) (int, bool) {
	rest, ok := bytes.CutPrefix(s, []byte("length - "))
	if !ok {
		return 0, false
	}
	f := bytes.Fields(rest)
	var num []byte
	switch {
	case len(f) == 2 && string(f[1]) == "bytes":
		num = f[0]
	case len(f) == 4 && string(f[1]) == "of" && string(f[3]) == "bytes":
		num = f[2]
	default:
		return 0, false
	}
	n, err := strconv.ParseUint(string(num), 10, 31)
	return int(n), err == nil
}

// bcgOffset parses the "OOOOOOOO:" prefix of a data line, returning the offset
// and the position after the colon.
func bcgOffset(line []byte) (int, int, bool) {
	p := skipBlanks(line, 0)
	if len(line) < p+9 || line[p+8] != ':' {
		return 0, 0, false
	}
	off, err := strconv.ParseUint(string(line[p:p+8]), 16, 32)
	if err != nil || off > 1<<31-1 {
		return 0, 0, false
	}
	return int(off), p + 9, true
}

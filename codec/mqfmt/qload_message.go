package mqfmt

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
)

// nextQLoad reads one message: an optional N line, A lines, then data lines up to
// the next line that is not a data line (qload's ReadFileMessage).
func (r *QLoadReader) nextQLoad() (QLoadMessage, error) {
	line, err := r.content()
	if err != nil {
		return QLoadMessage{}, err // io.EOF: no more messages
	}
	start := r.lines.no
	if line[0] != 'A' && line[0] != 'N' {
		return QLoadMessage{}, qloadErr(start, 1, "expected an A or N line to start a message, found \"%s\"", sanitizeShort(clip(line, 20)))
	}
	// qload treats N as a marker and nothing more: A lines after it still set
	// fields. HasMQMD therefore says whether any A line was read.
	m := QLoadMessage{MD: QLoadDefaultMQMD()}
	if line[0] == 'N' {
		if line, err = r.content(); err != nil {
			return QLoadMessage{}, r.endedEarly(err, start)
		}
	}
	for line[0] == 'A' {
		m.HasMQMD = true
		if err := applyAttrLine(&m.MD, line, r.lines.no); err != nil {
			return QLoadMessage{}, err
		}
		if line, err = r.content(); err != nil {
			return QLoadMessage{}, r.endedEarly(err, start)
		}
	}
	dropV2Fields(&m.MD)
	if !isDataLine(line) {
		return QLoadMessage{}, qloadErr(r.lines.no, 1, "expected a data line (X, S or T) for the message that starts at line %d, found \"%s\"", start, sanitizeShort(clip(line, 20)))
	}
	data := r.scratch[:0]
	for {
		if data, err = appendDataLine(data, line, r.lines.no); err != nil {
			return QLoadMessage{}, err
		}
		if len(data) > r.opts.MaxMessage {
			return QLoadMessage{}, &QLoadError{Line: r.lines.no, Err: ErrQLoadTooLarge,
				Msg: fmt.Sprintf("the message that starts at line %d is larger than the %d-byte limit", start, r.opts.MaxMessage)}
		}
		line, err = r.content()
		if err != nil && err != io.EOF {
			return QLoadMessage{}, err
		}
		if err == nil && isDataLine(line) {
			continue
		}
		if err == nil {
			r.lines.back()
		}
		m.Data = r.keep(data)
		return m, nil
	}
}

// keep returns a copy of the data gathered in the scratch buffer, sized
// exactly, and keeps the buffer for the next message unless it grew large.
func (r *QLoadReader) keep(data []byte) []byte {
	out := make([]byte, len(data))
	copy(out, data)
	r.scratch = data[:0]
	if cap(data) > 1<<20 {
		r.scratch = nil
	}
	return out
}

// dropV2Fields resets the group fields of a version-1 MQMD to their defaults.
// A version-1 MQMD has no such fields: the queue manager ignores them on put and
// the writer does not write them, so values a hand-edited file gives them would
// otherwise vanish on the next write.
func dropV2Fields(md *MQMD) {
	if md.Version < 2 {
		md.GroupId, md.MsgSeqNumber, md.Offset = qloadDefault.GroupId, qloadDefault.MsgSeqNumber, qloadDefault.Offset
		md.MsgFlags, md.OriginalLength = qloadDefault.MsgFlags, qloadDefault.OriginalLength
	}
}

// endedEarly turns the end of input inside a message into an error naming it.
func (r *QLoadReader) endedEarly(err error, start int) error {
	if err != io.EOF {
		return err
	}
	return &QLoadError{Line: r.lines.no, Err: io.ErrUnexpectedEOF,
		Msg: fmt.Sprintf("the file ends inside the message that starts at line %d, before its data lines", start)}
}

func isDataLine(line []byte) bool {
	return line[0] == 'X' || line[0] == 'S' || line[0] == 'T'
}

// applyAttrLine sets one MQMD field from "A <KEY> <value>". As in qload, the key
// is columns 3-5 and the value starts at column 7; a line with no value leaves
// the field as it was. Unlike qload, a value that qload would silently turn
// into something else (atoi of "abc" is 0, extra hex digits are dropped) is an
// error: a reloaded message with a quietly changed MQMD is worse than a refusal.
func applyAttrLine(md *MQMD, line []byte, lineNo int) error {
	if len(line) < 5 {
		return qloadErr(lineNo, 0, "attribute line \"%s\" is too short; want \"A <KEY> <value>\"", sanitizeShort(line))
	}
	f, ok := qloadByKey[string(line[2:5])]
	if !ok {
		return qloadErr(lineNo, 3, "unknown attribute \"%s\"", sanitizeShort(line[2:5]))
	}
	if len(line) < 7 {
		return nil
	}
	val := line[6:]
	if i := bytes.IndexByte(val, 0); i >= 0 {
		val = val[:i] // qload reads the value as a C string
	}
	if err := setField(md, f, val); err != nil {
		return qloadErr(lineNo, 7, "%s: %v", f.key, err)
	}
	return nil
}

// setField stores a textual value into a field; used by both readers.
func setField(md *MQMD, f *qloadField, val []byte) error {
	switch f.kind {
	case qfLong:
		v, err := parseLong(val)
		if err != nil {
			return err
		}
		*f.long(md) = v
	case qfChar:
		if len(val) > f.size {
			if len(bytes.TrimRight(val[f.size:], " ")) > 0 {
				return fmt.Errorf("%s value is %d characters; the field holds %d", f.name, len(val), f.size)
			}
			val = val[:f.size]
		}
		f.setChar(md, padField(string(val), f.size))
	case qfByte:
		b, err := parseFieldHex(val, f.size)
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		// A shorter value overwrites only the start of the field, as in qload.
		cur := f.getByte(md)
		copy(cur, b)
		f.setByte(md, cur)
	}
	return nil
}

// parseLong reads a decimal MQLONG. Surrounding blanks are allowed and a blank
// value is 0, as atoi makes it.
func parseLong(val []byte) (int32, error) {
	s := string(bytes.Trim(val, " \t"))
	if s == "" {
		return 0, nil
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("value \"%s\" is not a decimal 32-bit integer", sanitizeShort(clip([]byte(s), 24)))
	}
	return int32(v), nil
}

// parseFieldHex reads the hex value of a byte field: an even number of hex
// digits, at most two per byte of the field, then optional blanks.
func parseFieldHex(val []byte, size int) ([]byte, error) {
	val = bytes.TrimRight(val, " \t")
	if len(val)%2 != 0 {
		return nil, fmt.Errorf("odd number of hex digits (%d)", len(val))
	}
	if len(val) > 2*size {
		return nil, fmt.Errorf("%d hex digits; the field holds %d bytes (%d digits)", len(val), size, 2*size)
	}
	out := make([]byte, len(val)/2)
	for i := range out {
		hi, ok1 := unhex(val[2*i])
		lo, ok2 := unhex(val[2*i+1])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("\"%s\" is not a hex byte", sanitizeShort(val[2*i:2*i+2]))
		}
		out[i] = hi<<4 | lo
	}
	return out, nil
}

// hexVal maps a byte to its hex digit value, or 0xFF when it is not a digit.
var hexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for i, c := range []byte(upperHex) {
		t[c] = byte(i)
		t[c|0x20] = byte(i) // lower case; digits are unchanged by the bit
	}
	return t
}()

func unhex(c byte) (byte, bool) {
	v := hexVal[c]
	return v, v != 0xFF
}

// appendDataLine appends the bytes of one X, S or T line to data.
func appendDataLine(data, line []byte, lineNo int) ([]byte, error) {
	switch line[0] {
	case 'X':
		p := skipBlanks(line, 1)
		out, col, err := appendHexRun(data, line, p, false, '<')
		if err != nil {
			return nil, qloadErr(lineNo, col+1, "badly formed hex string: %v", err)
		}
		return out, nil
	case 'S':
		return appendStringLine(data, line, lineNo)
	default: // 'T': the text after "T " and the line feed the writer removed
		if len(line) > 2 {
			data = append(data, line[2:]...)
		}
		return append(data, '\n'), nil
	}
}

func skipBlanks(line []byte, p int) int {
	for p < len(line) && line[p] == ' ' {
		p++
	}
	return p
}

// appendHexRun decodes hex pairs from line[p:]. After the data, a line may
// have blanks and then its text column (-da's "<...>" or amqsbcg's quoted
// "'...'", opened by column); anything else is an error, so a damaged line
// (a non-hex character, a blank inside the data of an X line) is refused
// rather than read as a shorter message. The error's column (0-based) is
// returned. sparse skips blanks between bytes, as amqsbcg's "444C 4820"
// groups need.
func appendHexRun(data, line []byte, p int, sparse bool, column byte) ([]byte, int, error) {
	for {
		if sparse {
			p = skipBlanks(line, p)
		}
		if p >= len(line) {
			return data, p, nil
		}
		hi, ok := unhex(line[p])
		if !ok {
			if q, err := checkHexLineRest(line, p, column); err != nil {
				return nil, q, err
			}
			return data, p, nil
		}
		if p+1 >= len(line) {
			return nil, p, fmt.Errorf("a byte has only one hex digit")
		}
		lo, ok := unhex(line[p+1])
		if !ok {
			return nil, p + 1, fmt.Errorf("\"%s\" is not a hex byte", sanitizeShort(line[p:p+2]))
		}
		data = append(data, hi<<4|lo)
		p += 2
	}
}

// checkHexLineRest accepts what follows the hex data of a line at line[p]:
// blanks to the end, or at least one blank and then the text column. On
// error it returns the offending position.
func checkHexLineRest(line []byte, p int, column byte) (int, error) {
	q := skipBlanks(line, p)
	blank := q > p || (p > 0 && line[p-1] == ' ')
	if q == len(line) || (blank && line[q] == column) {
		return q, nil
	}
	return q, fmt.Errorf("\"%s\" where hex digits, blanks or the %c...%c text column belong", sanitizeShort(clip(line[q:], 8)), column, closing(column))
}

func closing(open byte) byte {
	if open == '<' {
		return '>'
	}
	return open
}

// appendStringLine decodes an S line: a quoted string in which "~" escapes '"'
// and '~', or, as qload also accepts, unquoted text up to its trailing blanks.
// (qload's unquoted branch drops the last character and misreads an empty line;
// the writer never produces one, so this reader takes the text as written.)
func appendStringLine(data, line []byte, lineNo int) ([]byte, error) {
	p := skipBlanks(line, 1)
	if p >= len(line) || line[p] != '"' {
		return append(data, bytes.TrimRight(line[p:], " ")...), nil
	}
	for p++; p < len(line); p++ {
		switch c := line[p]; c {
		case '"':
			return data, nil // qload ignores anything after the closing quote
		case '~':
			p++
			if p >= len(line) || (line[p] != '"' && line[p] != '~') {
				return nil, qloadErr(lineNo, p, "unexpected escape sequence: \"~\" must be followed by '\"' or '~'")
			}
			data = append(data, line[p])
		default:
			data = append(data, c)
		}
	}
	return nil, qloadErr(lineNo, len(line)+1, "invalid string line: no closing '\"'")
}

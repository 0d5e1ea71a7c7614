package mqfmt

import (
	"bytes"
	"fmt"
	"strconv"
)

const upperHex = "0123456789ABCDEF"

// appendChar appends what qload writes for a character field: the field at
// its full length (blank padded) up to the first NUL. The NUL and everything
// after it cannot be carried: the reader pads the field with blanks, as qload
// does.
func appendChar(b []byte, f *qloadField, md *MQMD) []byte {
	s := f.getChar(md)
	start := len(b)
	b = append(b, s[:min(len(s), f.size)]...)
	for i := len(s); i < f.size; i++ {
		b = append(b, ' ')
	}
	if i := bytes.IndexByte(b[start:], 0); i >= 0 {
		b = b[:start+i]
	}
	return b
}

// charWritable reports whether v survives as the rest of a line: no line feed,
// and no carriage return at its end (readers drop a CR before the LF).
func charWritable(v []byte) bool {
	return bytes.IndexByte(v, '\n') < 0 && !bytes.HasSuffix(v, []byte{'\r'})
}

// useCharForm decides between AID/AIX and AOD/AOX. With -dc the character form
// is used when it reads back exactly; a field holding NULs or line breaks falls
// back to hex, which loses nothing and which dmpmqmsg reads as well.
func useCharForm(f *qloadField, md *MQMD, charContext bool) bool {
	if !charContext {
		return false
	}
	c := f
	if f.kind != qfChar {
		c = qloadByKey[f.alt]
	}
	var tmp [64]byte
	v := appendChar(tmp[:0], c, md)
	return len(v) == c.size && charWritable(v)
}

// checkWritable refuses an MQMD with a character field the text format would
// corrupt (a line feed, or a trailing carriage return).
func checkWritable(md *MQMD, charContext bool) error {
	for i := range qloadFields {
		f := &qloadFields[i]
		if f.kind != qfChar || (f.alt != "" && !useCharForm(f, md, charContext)) {
			continue
		}
		var tmp [64]byte
		if !charWritable(appendChar(tmp[:0], f, md)) {
			return fmt.Errorf("MQMD %s \"%s\": %w", f.name, sanitizeShort([]byte(f.getChar(md))), ErrQLoadUnwritable)
		}
	}
	return nil
}

// writeMQMD writes the A lines in qload's order: the group fields only for a
// version-2 MQMD, and one of the two forms of ApplIdentityData and
// ApplOriginData.
func (w *QLoadWriter) writeMQMD(md *MQMD) {
	for i := range qloadFields {
		f := &qloadFields[i]
		if f.key == "" || (f.v2 && md.Version < 2) {
			continue
		}
		if f.alt != "" && (f.kind == qfChar) != useCharForm(f, md, w.opts.CharContext) {
			continue
		}
		b := append(w.line[:0], "A "...)
		b = append(append(b, f.key...), ' ')
		switch f.kind {
		case qfLong:
			b = strconv.AppendInt(b, int64(*f.long(md)), 10)
		case qfChar:
			b = appendChar(b, f, md)
		case qfByte:
			b = appendUpperHex(b, f.getByte(md))
		}
		w.emit(append(b, '\n'))
	}
}

func appendUpperHex(b, p []byte) []byte {
	for _, c := range p {
		b = append(b, upperHex[c>>4], upperHex[c&0xF])
	}
	return b
}

// writeData writes the message data in the chosen form. Empty data is one
// empty X line in every form: dmpmqmsg writes an empty S or T line there, which
// its own reader turns into a line feed (T) or misreads (S).
func (w *QLoadWriter) writeData(data []byte) {
	if len(data) == 0 {
		w.emit(append(w.line[:0], "X \n"...))
		return
	}
	switch w.opts.Form {
	case QLoadInvariant:
		w.writeRuns(data, isInvariant)
	case QLoadPrintable:
		w.writeRuns(data, isPrint)
	case QLoadText:
		w.writeText(data)
	default:
		w.writeHex(data)
	}
}

// runLen counts the leading bytes of data for which in(c) == want.
func runLen(data []byte, in func(byte) bool, want bool) int {
	n := 0
	for n < len(data) && in(data[n]) == want {
		n++
	}
	return n
}

// writeRuns alternates S lines (bytes in the set) and X lines (the rest), as
// dmpmqmsg -dA and -dp do. dmpmqmsg also writes an empty "S " line when the data
// starts outside the set; that line carries nothing and qload's reader
// mishandles it, so it is left out.
func (w *QLoadWriter) writeRuns(data []byte, in func(byte) bool) {
	for len(data) > 0 {
		if n := runLen(data, in, true); n > 0 {
			w.writeString(data[:n])
			data = data[n:]
		}
		if n := runLen(data, in, false); n > 0 {
			w.writeHex(data[:n])
			data = data[n:]
		}
	}
}

// writeText writes -dt output. dmpmqmsg's -dt is lossy: it writes every
// printable run as a T line, to which the reader appends a line feed whether or
// not the data had one, and drops CR terminators. This writer keeps the T line
// for a printable run ended by a line feed (so ordinary text looks as it does
// in dmpmqmsg's output) and writes any other printable run as S lines and
// non-printable runs as X lines, so every message reads back exactly.
func (w *QLoadWriter) writeText(data []byte) {
	for len(data) > 0 {
		n := runLen(data, isPrint, true)
		switch {
		case n < len(data) && data[n] == '\n':
			if n <= qloadMaxTextLine {
				w.emit(append(append(append(w.line[:0], "T "...), data[:n]...), '\n'))
			} else {
				w.writeString(data[:n])
				w.emit(append(w.line[:0], "T \n"...))
			}
			data = data[n+1:]
		case n > 0:
			w.writeString(data[:n])
			data = data[n:]
		default:
			k := runLen(data, isPrint, false)
			w.writeHex(data[:k])
			data = data[k:]
		}
	}
}

// writeHex writes X lines of Width bytes, with the -da column when asked: the
// hex, blanks up to one byte past the width, then "<text>" with non-printable
// bytes as dots.
func (w *QLoadWriter) writeHex(data []byte) {
	width := w.opts.Width
	for len(data) > 0 {
		chunk := data[:min(width, len(data))]
		data = data[len(chunk):]
		b := appendUpperHex(append(w.line[:0], "X "...), chunk)
		if w.opts.ASCIIColumn {
			for i := len(chunk); i < width+1; i++ {
				b = append(b, ' ', ' ')
			}
			b = append(b, '<')
			for _, c := range chunk {
				if !isPrint(c) {
					c = '.'
				}
				b = append(b, c)
			}
			b = append(b, '>')
		}
		w.emit(append(b, '\n'))
	}
}

// writeString writes S lines of at most 2*Width-2 data bytes each, quoted, with
// '"' and '~' escaped by '~'.
func (w *QLoadWriter) writeString(run []byte) {
	per := 2*w.opts.Width - 2
	for len(run) > 0 {
		chunk := run[:min(per, len(run))]
		run = run[len(chunk):]
		b := append(w.line[:0], 'S', ' ', '"')
		for _, c := range chunk {
			if c == '"' || c == '~' {
				b = append(b, '~')
			}
			b = append(b, c)
		}
		w.emit(append(b, '"', '\n'))
	}
}

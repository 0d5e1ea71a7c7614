package mqfmt

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// qloadLines splits input into lines with a hard cap on line length, counting
// line numbers for error messages and allowing one line to be pushed back.
type qloadLines struct {
	br     *bufio.Reader
	max    int
	no     int    // number of the line last returned
	cur    []byte // line last returned; valid until the next read
	buf    []byte // holds a line longer than the bufio buffer
	unread bool
	err    error // sticky: io.EOF or the first failure
}

func newQLoadLines(r io.Reader, maxLine int) *qloadLines {
	size := 64 << 10
	if maxLine+2 < size {
		size = max(maxLine+2, 16)
	}
	return &qloadLines{br: bufio.NewReaderSize(r, size), max: maxLine}
}

// next returns the next line without its terminator: LF, and one CR before it
// (files written by dmpmqmsg on Windows end lines with CRLF). The last line
// needs no terminator. The slice is valid until the next call.
func (l *qloadLines) next() ([]byte, error) {
	if l.unread {
		l.unread = false
		return l.cur, nil
	}
	if l.err != nil {
		return nil, l.err
	}
	line, err := l.read()
	if err != nil {
		l.err = err
		return nil, err
	}
	l.no++
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
	}
	if len(line) > l.max {
		l.err = &QLoadError{Line: l.no, Err: ErrQLoadTooLarge,
			Msg: fmt.Sprintf("line is longer than the %d-byte limit", l.max)}
		return nil, l.err
	}
	l.cur = line
	return line, nil
}

// back makes the next call to next return the current line again.
func (l *qloadLines) back() { l.unread = true }

// read returns one raw line, terminator included, reading at most max+2 bytes
// of it (room for CRLF) before giving up, so memory stays bounded.
func (l *qloadLines) read() ([]byte, error) {
	frag, err := l.br.ReadSlice('\n')
	if err == nil || (err == io.EOF && len(frag) > 0) {
		return frag, nil
	}
	if err == io.EOF {
		return nil, io.EOF
	}
	if !errors.Is(err, bufio.ErrBufferFull) {
		return nil, &QLoadError{Line: l.no + 1, Msg: "read failed", Err: err}
	}
	l.buf = append(l.buf[:0], frag...)
	for {
		if len(l.buf) > l.max+2 {
			return nil, &QLoadError{Line: l.no + 1, Err: ErrQLoadTooLarge,
				Msg: fmt.Sprintf("line is longer than the %d-byte limit", l.max)}
		}
		frag, err = l.br.ReadSlice('\n')
		l.buf = append(l.buf, frag...)
		switch {
		case err == nil || err == io.EOF:
			return l.buf, nil
		case !errors.Is(err, bufio.ErrBufferFull):
			return nil, &QLoadError{Line: l.no + 1, Msg: "read failed", Err: err}
		}
	}
}

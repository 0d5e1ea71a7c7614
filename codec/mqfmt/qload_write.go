package mqfmt

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"time"
)

// QLoadDataForm chooses how message data is written: dmpmqmsg's -d options
// A, p and t, of which one at most may be given.
type QLoadDataForm int

// Data forms.
const (
	// QLoadHex writes X lines only (dmpmqmsg's default).
	QLoadHex QLoadDataForm = iota
	// QLoadInvariant (-dA) writes runs of code-page-invariant characters as S
	// lines and everything else as X lines.
	QLoadInvariant
	// QLoadPrintable (-dp) writes runs of printable ASCII as S lines and
	// everything else as X lines.
	QLoadPrintable
	// QLoadText (-dt) writes each printable line ended by a line feed as a T
	// line and everything else as S or X lines (see the writer's notes).
	QLoadText
)

// QLoadWriterVersion is the version the writer puts in its header line.
const QLoadWriterVersion = "9.4.0.0"

// Width limits: dmpmqmsg raises a width below 10 to 10; the upper bound keeps
// every line well inside a reader's default line limit.
const (
	QLoadDefaultWidth = 25
	QLoadMinWidth     = 10
	QLoadMaxWidth     = 65536
)

// qloadMaxTextLine bounds a T line; a longer text line is written as S lines
// and an empty T line, which reads back the same.
const qloadMaxTextLine = 64 << 10

// QLoadWriterOptions mirrors dmpmqmsg's -d options; ParseQLoadDisplayOptions
// builds it from the option string.
type QLoadWriterOptions struct {
	Form        QLoadDataForm // -dA, -dp, -dt; QLoadHex by default
	Width       int           // -dw: bytes per X line; 0 means 25, below 10 means 10
	ASCIIColumn bool          // -da: printable characters after each X line
	NoMQMD      bool          // -dN: write "N" instead of the A lines
	NoHeader    bool          // -dH: no header comment
	Index       bool          // -di: "* Index <n>" before each message
	CharContext bool          // -dc: AID and AOD (characters) instead of AIX and AOX (hex)
	// QMgr and Queue, when set, are written as the "* Qmgr  = " and
	// "* Queue = " header comments (48 characters at most, as dmpmqmsg).
	QMgr, Queue string
	// Now is the clock for the header's "Created:" time; time.Now when nil.
	Now func() time.Time
}

// ParseQLoadDisplayOptions reads a dmpmqmsg -d option string such as "aN" or
// "tw40". The summary and age options (s, C, M, T, x) produce reports, not
// qload files, and are refused.
func ParseQLoadDisplayOptions(d string) (QLoadWriterOptions, error) {
	var o QLoadWriterOptions
	forms := 0
	for i := 0; i < len(d); i++ {
		switch c := d[i]; c {
		case 'a':
			o.ASCIIColumn = true
		case 'A', 'p', 't':
			forms++
			o.Form = map[byte]QLoadDataForm{'A': QLoadInvariant, 'p': QLoadPrintable, 't': QLoadText}[c]
		case 'c':
			o.CharContext = true
		case 'H':
			o.NoHeader = true
		case 'i':
			o.Index = true
		case 'N':
			o.NoMQMD = true
		case 'w':
			j := i + 1
			for j < len(d) && d[j] >= '0' && d[j] <= '9' {
				j++
			}
			n, err := strconv.Atoi(d[i+1 : j])
			if err != nil && j > i+1 {
				return o, fmt.Errorf("display option w%s: %w", d[i+1:j], err)
			}
			o.Width, i = n, j-1
		case 's', 'C', 'M', 'T', 'x':
			return o, fmt.Errorf("display option %q writes a report, not a qload file", c)
		default:
			return o, fmt.Errorf("unknown display option %q", c)
		}
	}
	if forms > 1 {
		return o, fmt.Errorf("display options %q: give only one of A, p and t", d)
	}
	return o, nil
}

// QLoadWriter writes messages in the qload (dmpmqmsg) file format. Call Flush
// after the last message.
type QLoadWriter struct {
	bw    *bufio.Writer
	opts  QLoadWriterOptions
	index int
	line  []byte // scratch for one line
	err   error  // sticky write error
}

// NewQLoadWriter checks opts, writes the header (unless NoHeader) and returns
// the writer.
func NewQLoadWriter(w io.Writer, opts QLoadWriterOptions) (*QLoadWriter, error) {
	switch {
	case opts.Width <= 0:
		opts.Width = QLoadDefaultWidth
	case opts.Width < QLoadMinWidth:
		opts.Width = QLoadMinWidth
	case opts.Width > QLoadMaxWidth:
		return nil, fmt.Errorf("qload width %d is over the maximum of %d", opts.Width, QLoadMaxWidth)
	}
	if opts.Form < QLoadHex || opts.Form > QLoadText {
		return nil, fmt.Errorf("qload data form %d is not one of QLoadHex, QLoadInvariant, QLoadPrintable, QLoadText", opts.Form)
	}
	if bytes.ContainsAny([]byte(opts.QMgr+opts.Queue), "\r\n") {
		return nil, fmt.Errorf("qload header: queue manager or queue name contains a line break")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	qw := &QLoadWriter{bw: bufio.NewWriterSize(w, 64<<10), opts: opts}
	if !opts.NoHeader {
		qw.writeHeader()
	}
	return qw, qw.err
}

// writeHeader writes what qload's WriteFileHeader writes, naming the tool
// DMPMQMSG: the version and ctime() line, the queue manager and queue, and an
// empty line.
func (w *QLoadWriter) writeHeader() {
	b := w.line[:0]
	b = append(b, "* DMPMQMSG Version:"+QLoadWriterVersion+" Created:"...)
	b = w.opts.Now().AppendFormat(b, "Mon Jan _2 15:04:05 2006")
	b = append(b, '\n')
	if w.opts.QMgr != "" {
		b = append(b, "* Qmgr  = "+string(clip([]byte(w.opts.QMgr), 48))+"\n"...)
	}
	if w.opts.Queue != "" {
		b = append(b, "* Queue = "+string(clip([]byte(w.opts.Queue), 48))+"\n"...)
	}
	w.emit(append(b, '\n'))
}

// emit writes one finished piece of output and keeps the scratch buffer.
func (w *QLoadWriter) emit(b []byte) {
	w.line = b[:0]
	if w.err == nil {
		_, w.err = w.bw.Write(b)
	}
}

// Write writes one message. A message whose MQMD cannot be written (see
// ErrQLoadUnwritable) is refused before anything of it is written, so the file
// stays valid and the caller may go on with the next message.
func (w *QLoadWriter) Write(m QLoadMessage) error {
	if w.err != nil {
		return w.err
	}
	withMD := m.HasMQMD && !w.opts.NoMQMD
	if withMD {
		if err := checkWritable(&m.MD, w.opts.CharContext); err != nil {
			return err
		}
	}
	w.index++
	if w.opts.Index {
		b := strconv.AppendInt(append(w.line[:0], "* Index "...), int64(w.index), 10)
		w.emit(append(b, '\n'))
	}
	if withMD {
		w.writeMQMD(&m.MD)
	} else {
		w.emit(append(w.line[:0], "N\n"...))
	}
	w.writeData(m.Data)
	w.emit(append(w.line[:0], '\n'))
	if w.err != nil {
		return fmt.Errorf("write qload message %d: %w", w.index, w.err)
	}
	return nil
}

// Flush writes any buffered output to the underlying writer.
func (w *QLoadWriter) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("flush qload file: %w", err)
	}
	return w.err
}

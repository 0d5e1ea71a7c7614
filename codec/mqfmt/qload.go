package mqfmt

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// The qload file format is the text format of IBM's dmpmqmsg (formerly the qload
// SupportPac MO03): per message, its MQMD as "A <KEY> <value>" lines and its data
// as X (hex), S (quoted string) or T (text line) lines, so that a queue can be
// unloaded, edited by hand and loaded again. The reader follows qload's reader
// (qloadfnc.c: ReadLine, SetFileAttribute, ReadFileMessage, ReadBCGMessage) and the
// writer follows its writer (WriteFileHeader, WriteFileMQMD, WriteFileMessage*);
// where this package differs on purpose, the comment at the spot says why.

// QLoadMessage is one message of a qload (dmpmqmsg) file or an amqsbcg dump.
type QLoadMessage struct {
	// MD is the message descriptor. Character fields come back at their full
	// length, blank padded, as qload stores them; fields the file does not give
	// keep the MQMD defaults (see QLoadDefaultMQMD).
	MD MQMD
	// HasMQMD says whether the file gave any MQMD field (A lines). It is false
	// for a message written with dmpmqmsg -dN ("N" and no A lines): MD is then
	// the default MQMD and the queue manager fills in the rest on put. The writer
	// writes "N" for a message whose HasMQMD is false, and MD is not written.
	HasMQMD bool
	// Data is the message body, every header included.
	Data []byte
	// DumpLength is the message length an amqsbcg dump declares ("length - N
	// bytes"); 0 for qload files. A dump longer than len(Data) shows only the
	// start of the message (see Partial).
	DumpLength int
}

// Partial reports whether the source showed only the start of the message, as
// in an amqsbcg dump that was cut short.
func (m QLoadMessage) Partial() bool { return m.DumpLength > len(m.Data) }

// QLoadHeader is what the first lines of a file say about it.
type QLoadHeader struct {
	// Tool is "QLOAD", "DMPMQMSG" or "AMQSBCG0"; "" for a headerless file.
	Tool string
	// Version and Created are the text after "Version:" and "Created:" in the
	// first line ("Created" is a ctime() string), "" when absent.
	Version, Created string
	// QMgr and Queue come from the "* Qmgr  = " and "* Queue = " comments
	// dmpmqmsg writes when it unloads a queue. Every field is raw text from
	// the file: sanitise it before it reaches a terminal.
	QMgr, Queue string
}

// Limits the reader applies unless QLoadReaderOptions says otherwise.
const (
	// DefaultQLoadMaxLine bounds one line, so a corrupt file without line
	// breaks cannot make the reader buffer it whole.
	DefaultQLoadMaxLine = 1 << 20
	// DefaultQLoadMaxMessage is IBM MQ's largest MAXMSGL (100 MB): no queue
	// manager can hold a bigger message, so a bigger one is a damaged file.
	DefaultQLoadMaxMessage = 104857600
)

// Errors wrapped by QLoadError so callers can tell a limit from a syntax error.
var (
	// ErrQLoadTooLarge: a line or a message exceeds the reader's limit.
	ErrQLoadTooLarge = errors.New("over the size limit")
	// ErrQLoadPartial: with QLoadReaderOptions.Whole, a dump shows only the
	// start of a message.
	ErrQLoadPartial = errors.New("partial message")
	// ErrQLoadNotQLoad: the input does not start like a qload, dmpmqmsg or
	// amqsbcg file.
	ErrQLoadNotQLoad = errors.New("not a qload file")
	// ErrQLoadUnwritable: an MQMD character field holds a line break the text
	// format cannot carry; the writer refuses it instead of corrupting the file.
	ErrQLoadUnwritable = errors.New("field cannot be written in a qload file")
)

// QLoadError reports malformed qload or amqsbcg input with the line (and, where
// it helps, the column) at fault, so an operator can fix the file by hand.
type QLoadError struct {
	Line   int // 1-based line number; 0 when not tied to a line
	Column int // 1-based byte column; 0 when the whole line is at fault
	Msg    string
	Err    error // optional cause: ErrQLoadTooLarge, io.ErrUnexpectedEOF, an I/O error
}

// Error says where: "qload line 12, column 7: ...".
func (e *QLoadError) Error() string {
	switch {
	case e.Line == 0:
		return "qload: " + e.Msg
	case e.Column == 0:
		return fmt.Sprintf("qload line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("qload line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Unwrap returns the cause, so errors.Is finds ErrQLoadTooLarge and the like.
func (e *QLoadError) Unwrap() error { return e.Err }

func qloadErr(line, col int, format string, args ...any) *QLoadError {
	return &QLoadError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// ReadQLoad reads every message of a qload (dmpmqmsg) file, or of amqsbcg output,
// with the default limits. Use QLoadReader for big files: it holds one message
// at a time.
func ReadQLoad(r io.Reader) ([]QLoadMessage, error) {
	qr := NewQLoadReader(r, QLoadReaderOptions{})
	var out []QLoadMessage
	for {
		m, err := qr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
}

// WriteQLoad writes msgs as one qload file with the given options.
func WriteQLoad(w io.Writer, msgs []QLoadMessage, opts QLoadWriterOptions) error {
	qw, err := NewQLoadWriter(w, opts)
	if err != nil {
		return err
	}
	for i := range msgs {
		if err := qw.Write(msgs[i]); err != nil {
			return fmt.Errorf("message %d: %w", i+1, err)
		}
	}
	return qw.Flush()
}

// QLoadDefaultMQMD returns the MQMD a qload reader starts every message from:
// MQMD_DEFAULT (version 2) with character fields at full length, blank padded, as
// a C program's MQMD2_DEFAULT holds them. Encoding is 546, the native encoding of
// the x86 hosts this tool runs on (qload uses the native encoding of the host
// that reads the file).
func QLoadDefaultMQMD() MQMD { return qloadDefault }

// qloadDefault is built once: every message of a file starts from it.
var qloadDefault = func() MQMD {
	md := NewMQMD()
	for _, f := range qloadFields {
		if f.kind == qfChar {
			f.setChar(&md, padField(f.getChar(&md), f.size))
		}
	}
	return md
}()

// padField cuts or blank-pads s to an n-byte character field, as the MQI does.
func padField(s string, n int) string {
	if len(s) >= n {
		return s[:n]
	}
	return s + strings.Repeat(" ", n-len(s))
}

// isPrint is C's isprint() in the "C" locale, which qload uses to choose S and T
// lines and to fill the -da column.
func isPrint(c byte) bool { return c >= 0x20 && c < 0x7f }

// isInvariant reports whether c is in the set qload treats as invariant across
// code pages (CSINVARIANT): letters, digits and " '()+,-./:=?_". -dA writes
// these as S lines.
func isInvariant(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte(" '()+,-./:=?_", c) >= 0
}

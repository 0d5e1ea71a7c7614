package mqfmt

import (
	"bytes"
	"fmt"
	"io"
)

// QLoadReaderOptions bounds what a QLoadReader accepts. Zero values mean the
// defaults.
type QLoadReaderOptions struct {
	// MaxLine is the longest line accepted (DefaultQLoadMaxLine when 0).
	MaxLine int
	// MaxMessage is the largest message body accepted (DefaultQLoadMaxMessage
	// when 0).
	MaxMessage int
	// Headerless accepts a file without the "* QLOAD" / "* DMPMQMSG" first line,
	// as dmpmqmsg -dH writes it. dmpmqmsg itself refuses such a file, so this is
	// off by default: a stray text file should not load as zero messages.
	Headerless bool
	// Whole refuses an amqsbcg dump that shows only the start of a message
	// ("length - 5 of 2147483647 bytes"), for readers that put messages back
	// on a queue: a partial message must not be restored as if whole.
	Whole bool
}

// QLoadReader reads messages one at a time from a qload (dmpmqmsg) file or from
// amqsbcg output, so a file of any number of messages needs memory for one.
type QLoadReader struct {
	lines   *qloadLines
	opts    QLoadReaderOptions
	header  QLoadHeader
	started bool
	bcg     bool
	scratch []byte // gathers a message's data; see keep
	err     error  // sticky: io.EOF or the first failure
}

// NewQLoadReader returns a reader of r. Nothing is read until Header or Next.
func NewQLoadReader(r io.Reader, opts QLoadReaderOptions) *QLoadReader {
	if opts.MaxLine <= 0 {
		opts.MaxLine = DefaultQLoadMaxLine
	}
	if opts.MaxMessage <= 0 {
		opts.MaxMessage = DefaultQLoadMaxMessage
	}
	return &QLoadReader{lines: newQLoadLines(r, opts.MaxLine), opts: opts}
}

// Header reads the file's first lines if that has not happened yet and returns
// what they say.
func (r *QLoadReader) Header() (QLoadHeader, error) {
	if err := r.start(); err != nil {
		return QLoadHeader{}, err
	}
	return r.header, nil
}

// Next returns the next message, or io.EOF after the last one. After any other
// error the reader stays failed: the position in a malformed file is unknown.
func (r *QLoadReader) Next() (QLoadMessage, error) {
	if err := r.start(); err != nil {
		return QLoadMessage{}, err
	}
	if r.err != nil {
		return QLoadMessage{}, r.err
	}
	var m QLoadMessage
	var err error
	if r.bcg {
		m, err = r.nextBCG()
	} else {
		m, err = r.nextQLoad()
	}
	if err == nil && r.opts.Whole && m.Partial() {
		err = &QLoadError{Line: r.lines.no, Err: ErrQLoadPartial,
			Msg: fmt.Sprintf("the dump shows only the first %d of %d bytes of a message: it cannot be restored whole", len(m.Data), m.DumpLength)}
	}
	if err != nil {
		r.err = err
		return QLoadMessage{}, err
	}
	return m, nil
}

// start checks the first non-blank line, as qload does before anything else,
// and collects the Qmgr and Queue comments that follow it.
func (r *QLoadReader) start() error {
	if r.started {
		if r.err == io.EOF {
			return nil
		}
		return r.err
	}
	r.started = true
	if r.opts.Headerless {
		return nil
	}
	line, err := r.firstLine()
	if err != nil {
		r.err = err
		return err
	}
	switch {
	case bytes.HasPrefix(line, []byte("* QLOAD")):
		r.header.Tool = "QLOAD"
	case bytes.HasPrefix(line, []byte("* DMPMQMSG")):
		r.header.Tool = "DMPMQMSG"
	case bytes.HasPrefix(line, []byte("AMQSBCG0")):
		r.header.Tool, r.bcg = "AMQSBCG0", true
		return nil
	default:
		r.err = &QLoadError{Line: r.lines.no, Err: ErrQLoadNotQLoad,
			Msg: fmt.Sprintf("first line \"%s\" does not start with \"* QLOAD\", \"* DMPMQMSG\" or \"AMQSBCG0\"", sanitizeShort(clip(line, 40)))}
		return r.err
	}
	r.header.Version, r.header.Created = headerValues(string(line))
	return r.headerComments()
}

// firstLine returns the first line holding something other than blanks, tabs
// and CRs; comments count, since the header is one.
func (r *QLoadReader) firstLine() ([]byte, error) {
	for {
		line, err := r.lines.next()
		if err == io.EOF {
			return nil, &QLoadError{Err: ErrQLoadNotQLoad, Msg: "empty input: no \"* QLOAD\" or \"* DMPMQMSG\" header"}
		}
		if err != nil {
			return nil, err
		}
		if !isBlankLine(line) {
			return line, nil
		}
	}
}

func headerValues(line string) (version, created string) {
	const v, c = "Version:", " Created:"
	vi := bytes.Index([]byte(line), []byte(v))
	ci := bytes.Index([]byte(line), []byte(c))
	if vi >= 0 {
		end := len(line)
		if ci > vi {
			end = ci
		}
		version = line[vi+len(v) : end]
	}
	if ci >= 0 {
		created = line[ci+len(c):]
	}
	return version, created
}

// headerComments reads the comments up to the first message for the Qmgr and
// Queue lines and leaves that first message's line unread.
func (r *QLoadReader) headerComments() error {
	for {
		line, err := r.lines.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			r.err = err
			return err
		}
		if isBlankLine(line) {
			continue
		}
		if line[0] != '*' {
			r.lines.back()
			return nil
		}
		if v, ok := commentValue(line, "* Qmgr"); ok {
			r.header.QMgr = v
		} else if v, ok := commentValue(line, "* Queue"); ok {
			r.header.Queue = v
		}
	}
}

// commentValue parses "<prefix> = value", with any number of blanks before "=".
func commentValue(line []byte, prefix string) (string, bool) {
	rest, ok := bytes.CutPrefix(line, []byte(prefix))
	if !ok {
		return "", false
	}
	rest = bytes.TrimLeft(rest, " ")
	if rest, ok = bytes.CutPrefix(rest, []byte("=")); !ok {
		return "", false
	}
	return string(bytes.TrimPrefix(rest, []byte(" "))), true
}

// content returns the next line that is neither blank nor a comment: qload skips
// both anywhere in a file. Lines of blanks count as blank here although qload
// only skips empty ones, because an editor's stray indentation must not turn a
// valid file into a syntax error.
func (r *QLoadReader) content() ([]byte, error) {
	for {
		line, err := r.lines.next()
		if err != nil {
			return nil, err
		}
		if !isBlankLine(line) && line[0] != '*' {
			return line, nil
		}
	}
}

func isBlankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

func clip(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

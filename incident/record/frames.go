package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"fmt"
	"io"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// frameReader is the bounded loader of a recording: each frame is read
// whole, scanned (safeload.GobStream) and weighed against the caps before
// the gob decoder sees it, and every string is sanitised once decoded. It
// reads a recording's segments (gzip members, each its own gob stream) one
// after another, and says where each starts in the file.
type frameReader struct {
	lim    Limits
	cr     *countingReader // the file as the decompressor takes it
	gz     *gzip.Reader
	unz    *safeload.CapReader
	gs     *safeload.GobStream
	src    *bytes.Reader // the frame the decoder reads
	dec    *gob.Decoder
	base   int64                         // decompressed bytes of the segments before this one
	seg    int                           // the segment being read
	start  int64                         // its offset in the file
	whole  map[invKey]*mqwatch.Inventory // the inventories being read in chunks
	memory int64                         // estimated, of the frames decoded
	frames int
	tally  *tally // nil when reading a segment again: it was counted once
}

func newFrameReader(r io.Reader, lim Limits) (*frameReader, error) {
	fr, err := newSegmentReader(r, lim)
	if err != nil {
		return nil, err
	}
	fr.tally = &tally{lim: lim, qm: map[string]*qmTally{}}
	return fr, nil
}

// newSegmentReader reads frames from r, a segment or a whole recording,
// without counting what they rebuild against the caps.
func newSegmentReader(r io.Reader, lim Limits) (*frameReader, error) {
	cr := &countingReader{r: bufio.NewReaderSize(r, 1<<20)}
	gz, err := gzip.NewReader(cr)
	if err != nil {
		return nil, err
	}
	gz.Multistream(false)
	fr := &frameReader{lim: lim, cr: cr, gz: gz, unz: &safeload.CapReader{R: gz, Max: lim.MaxBytes, What: "decompressed bytes"},
		whole: map[invKey]*mqwatch.Inventory{}}
	fr.stream()
	return fr, nil
}

// stream starts reading a segment's gob stream.
func (r *frameReader) stream() {
	r.gs = safeload.NewGobStream(r.unz, r.lim.gobLimits())
	r.src = bytes.NewReader(nil)
	r.dec = gob.NewDecoder(r.src)
}

// nextSegment moves to the next gzip member, false at the end of the
// file. A member that is not gzip is an error.
func (r *frameReader) nextSegment() (bool, error) {
	end := r.cr.n
	if err := r.gz.Reset(r.cr); err != nil {
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		return false, &refused{r.frames, r.base + r.gs.Offset(), fmt.Errorf("after segment %d: %w", r.seg, err)}
	}
	r.gz.Multistream(false)
	r.base += r.gs.Offset()
	r.seg, r.start = r.seg+1, end
	r.stream()
	return true, nil
}

// countingReader counts the bytes the decompressor took, so that where a
// gzip member ends is known exactly (the decompressor reads a byte at a
// time through ReadByte, never ahead). When keep is set it also keeps
// them, from base on, until cut.
type countingReader struct {
	r    *bufio.Reader
	n    int64
	keep bool
	raw  []byte
	base int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.keep {
		c.raw = append(c.raw, p[:n]...)
	}
	return n, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
		if c.keep {
			c.raw = append(c.raw, b)
		}
	}
	return b, err
}

// cut returns a copy of the bytes kept from start to end of the file
// (when want) and forgets those before end.
func (c *countingReader) cut(start, end int64, want bool) []byte {
	from, to := max(start-c.base, 0), min(end-c.base, int64(len(c.raw)))
	var out []byte
	if want && from < to {
		out = append([]byte(nil), c.raw[from:to]...)
	}
	c.raw = append(c.raw[:0], c.raw[max(to, 0):]...)
	c.base = end
	return out
}

// refused is a recording over a cap or not a recording at all: what is
// wrong, in which frame (0 is the header) and where it starts.
type refused struct {
	frame  int
	offset int64
	err    error
}

func (e *refused) Error() string {
	what := fmt.Sprintf("frame %d", e.frame)
	if e.frame == 0 {
		what = "the header"
	}
	return fmt.Sprintf("%s (at byte %d of the decompressed stream): %v", what, e.offset, e.err)
}

func (e *refused) Unwrap() error { return e.err }

// decode reads the next value into v. io.EOF is the end of the stream
// between frames, io.ErrUnexpectedEOF a frame cut short (the writer was
// killed); anything else is a *refused.
func (r *frameReader) decode(v any) error {
	val, err := r.gs.Next()
	for errors.Is(err, io.EOF) {
		more, serr := r.nextSegment()
		if serr != nil {
			return serr
		}
		if !more {
			return io.EOF
		}
		val, err = r.gs.Next()
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	if err != nil {
		var ge *safeload.GobError
		if errors.As(err, &ge) {
			return &refused{r.frames, r.base + ge.Offset, ge.Err}
		}
		return &refused{r.frames, r.base + r.gs.Offset(), err}
	}
	val.Offset += r.base
	if r.memory += val.Memory; r.memory > r.lim.MaxMemory {
		return &refused{r.frames, val.Offset, fmt.Errorf("the frames decode to more than %d bytes (the cap on memory): %w", r.lim.MaxMemory, safeload.ErrTooLarge)}
	}
	r.src.Reset(val.Data)
	if err := r.dec.Decode(v); err != nil {
		return &refused{r.frames, val.Offset, err}
	}
	if r.src.Len() != 0 {
		return &refused{r.frames, val.Offset, errors.New("bytes left over after the frame")}
	}
	return nil
}

// header reads the recording's first frame.
func (r *frameReader) header(h *Header) error {
	if err := r.decode(h); err != nil {
		return err
	}
	sanitize(h)
	if h.Magic != Magic {
		return &refused{0, 0, errors.New("not a poisonwatch recording")}
	}
	if len(h.QMgrs) > r.lim.MaxQMgrs {
		return &refused{0, 0, fmt.Errorf("more than %d queue managers (the cap): %w", r.lim.MaxQMgrs, safeload.ErrTooLarge)}
	}
	return nil
}

// next reads the next frame, sanitised and counted against the caps.
func (r *frameReader) next(fr *Frame) error {
	start := r.base + r.gs.Offset()
	r.frames++
	if err := r.decode(fr); err != nil {
		return err
	}
	if r.frames > r.lim.MaxFrames {
		return &refused{r.frames, start, fmt.Errorf("more than %d frames (the cap): %w", r.lim.MaxFrames, safeload.ErrTooLarge)}
	}
	sanitize(fr)
	if r.tally == nil {
		return r.inventories(fr)
	}
	if err := r.tally.frame(fr); err != nil {
		return &refused{r.frames, start, fmt.Errorf("%w: %w", err, safeload.ErrTooLarge)}
	}
	if err := r.inventories(fr); err != nil {
		return &refused{r.frames, start, err}
	}
	return nil
}

// invKey names an inventory: its queue manager and queue.
type invKey struct{ qmgr, queue string }

// inventories checks a frame's columns, and reads a chunk's into the
// inventory built so far (Chunk's whole), its columns then dropped.
func (r *frameReader) inventories(fr *Frame) error {
	if p := fr.Poll; p != nil {
		for i := range p.Invs {
			in := &p.Invs[i]
			// The replay appends to this inventory from here on: a
			// later chunk (a crafted file's) is not appended to it from
			// this goroutine too, but read as a list.
			delete(r.whole, invKey{p.QMgr, in.Queue})
			// Kept as columns (a fifth of the memory of whole summaries),
			// read as a list each time the poll is replayed.
			if err := in.Cols.checked(); err != nil {
				return fmt.Errorf("%s %s: %w", p.QMgr, in.Queue, err)
			}
			if err := in.readDropKeys(); err != nil {
				return fmt.Errorf("%s %s: %w", p.QMgr, in.Queue, err)
			}
		}
	}
	c := fr.Chunk
	if c == nil {
		return nil
	}
	if err := c.Inv.Cols.checked(); err != nil {
		return fmt.Errorf("%s %s: %w", c.QMgr, c.Inv.Queue, err)
	}
	k := invKey{c.QMgr, c.Inv.Queue}
	inv, begun := r.whole[k]
	switch {
	case c.Inv.Full:
		inv = nil
	case !begun:
		return nil // no first chunk: the replay appends it to what it has
	}
	c.whole = appendInv(inv, &c.Inv)
	r.whole[k] = c.whole
	c.Inv.Added, c.Inv.Cols = nil, nil
	return nil
}

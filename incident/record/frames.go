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
// the gob decoder sees it, and every string is sanitised once decoded.
type frameReader struct {
	lim    Limits
	unz    *safeload.CapReader
	gs     *safeload.GobStream
	src    *bytes.Reader // the frame the decoder reads
	dec    *gob.Decoder
	whole  map[invKey]*mqwatch.Inventory // the inventories being read in chunks
	memory int64                         // estimated, of the frames decoded
	frames int
	tally  tally
}

func newFrameReader(r io.Reader, lim Limits) (*frameReader, error) {
	gz, err := gzip.NewReader(bufio.NewReaderSize(r, 1<<20))
	if err != nil {
		return nil, err
	}
	unz := &safeload.CapReader{R: gz, Max: lim.MaxBytes, What: "decompressed bytes"}
	src := bytes.NewReader(nil)
	return &frameReader{lim: lim, unz: unz, gs: safeload.NewGobStream(unz, lim.gobLimits()), src: src,
		dec: gob.NewDecoder(src), whole: map[invKey]*mqwatch.Inventory{}, tally: tally{lim: lim, qm: map[string]*qmTally{}}}, nil
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
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return err
	}
	if err != nil {
		var ge *safeload.GobError
		if errors.As(err, &ge) {
			return &refused{r.frames, ge.Offset, ge.Err}
		}
		return &refused{r.frames, r.gs.Offset(), err}
	}
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
	start := r.gs.Offset()
	r.frames++
	if err := r.decode(fr); err != nil {
		return err
	}
	if r.frames > r.lim.MaxFrames {
		return &refused{r.frames, start, fmt.Errorf("more than %d frames (the cap): %w", r.lim.MaxFrames, safeload.ErrTooLarge)}
	}
	sanitize(fr)
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

package record

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"slices"
	"sync"
)

// A recording is written in segments (format version 2): each a gzip
// member of its own with a gob stream of its own, so it can be read again
// alone, from its offset in the file, without what came before. Playback
// keeps only the time and queue manager of a poll it has read and reads
// the poll's segment again when it replays it (Recording.Full). A full
// inventory's chunks are segments of their own: they stay in memory, as
// the inventory they build.
const segmentBytes = 64 << 10 // compressed: a few milliseconds to read again

// segmentState is the writer's current segment.
type segmentState struct {
	start  int64 // its offset in the file
	frames int
	chunks bool // it holds chunks
}

// ends says fr starts a new segment: the current one is full, or fr is
// a chunk after polls or a poll after chunks. The header's segment ends
// with the first frame after it.
func (s *segmentState) ends(fr Frame, at int64) bool {
	return s.frames > 0 && (at-s.start >= segmentBytes || (fr.Chunk != nil) != s.chunks) ||
		s.frames == 0 && s.start == 0 && at > 0
}

// newSegment ends the gzip member and starts another, with a gob encoder
// that sends its types again.
func (w *Writer) newSegment(chunks bool) error {
	if err := w.gz.Close(); err != nil {
		return err
	}
	w.seg = segmentState{start: w.cnt.n, chunks: chunks}
	w.gz = gzip.NewWriter(w.cnt)
	w.enc = gob.NewEncoder(w.gz)
	return nil
}

// segments are where a recording opened light reads its polls again.
type segments struct {
	light     bool // polls are kept light (OpenLight, format version 2)
	file      *os.File
	lim       Limits
	closeFile func() error

	mu    sync.Mutex
	list  []segment
	cache map[int][]Frame // the segments read again last, by number
	order []int           // cache's keys, oldest first
}

// segment is a part of the file read whole once: where it lies, its
// checksum then, and the frames it held.
type segment struct {
	off, len int64
	crc      uint32
	first, n int // the index of its first frame in the recording, and how many
}

// cachedSegments is how many segments read again are kept decoded: a
// playback and its fold ahead each read on from their own.
const cachedSegments = 8

// errChanged is a recording whose file changed after it was opened.
var errChanged = errors.New("the recording changed on disk since it was opened")

// ended takes the frames of a segment read whole ([start, end) of the
// file), which the recording will number from first: their polls are
// made light.
func (s *segments) ended(batch []Frame, first int, start, end int64) {
	if !s.light || !slices.ContainsFunc(batch, func(f Frame) bool { return f.Poll != nil }) {
		return
	}
	buf := make([]byte, end-start)
	if _, err := s.file.ReadAt(buf, start); err != nil {
		return // kept whole
	}
	s.mu.Lock()
	k := len(s.list)
	s.list = append(s.list, segment{off: start, len: end - start, crc: crc32.ChecksumIEEE(buf), first: first, n: len(batch)})
	s.mu.Unlock()
	for i := range batch {
		if p := batch[i].Poll; p != nil {
			batch[i].Poll = &Poll{QMgr: p.QMgr, Time: p.Time, light: true, seg: k}
		}
	}
}

// Full is frame i whole: a light poll is read again from its segment.
func (r *Recording) Full(i int) (Frame, error) {
	fr := r.Frame(i)
	if fr.Poll == nil || !fr.Poll.light {
		return fr, nil
	}
	frames, sg, err := r.seg.read(fr.Poll.seg)
	if err != nil {
		return Frame{}, fmt.Errorf("replay: reading the poll of %s at %s again: %w", fr.Poll.QMgr, fr.Poll.Time.Format("15:04:05"), err)
	}
	full := frames[i-sg.first]
	if full.Poll == nil || !full.Poll.Time.Equal(fr.Poll.Time) || full.Poll.QMgr != fr.Poll.QMgr {
		return Frame{}, fmt.Errorf("replay: %w", errChanged)
	}
	return full, nil
}

// read is segment k's frames, read again from the file (and checked
// against what was read first) unless among the last read.
func (s *segments) read(k int) ([]Frame, segment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sg := s.list[k]
	if frames, ok := s.cache[k]; ok {
		return frames, sg, nil
	}
	buf := make([]byte, sg.len)
	if _, err := s.file.ReadAt(buf, sg.off); err != nil {
		return nil, sg, err
	}
	if crc32.ChecksumIEEE(buf) != sg.crc {
		return nil, sg, errChanged
	}
	fr, err := newSegmentReader(bytes.NewReader(buf), s.lim)
	if err != nil {
		return nil, sg, err
	}
	frames := make([]Frame, sg.n)
	for j := range frames {
		if err := fr.next(&frames[j]); err != nil {
			return nil, sg, err
		}
	}
	if s.cache == nil {
		s.cache = map[int][]Frame{}
	}
	if len(s.order) == cachedSegments {
		delete(s.cache, s.order[0])
		s.order = s.order[1:]
	}
	s.cache[k], s.order = frames, append(s.order, k)
	return frames, sg, nil
}

package record

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"sync"
)

// A recording is written in segments (format version 2): each a gzip
// member of its own with a gob stream of its own, so it can be decoded
// again alone, without what came before. Playback keeps a segment's bytes
// as they were read from the file (compressed, a tenth of the polls
// decoded), only the time and queue manager of each poll in it, and
// decodes the segment again when it replays a poll (Recording.Full): no
// file is read on the dashboard's loop, and a file changed or removed
// under a playback changes nothing it shows. A full inventory's chunks
// are segments of their own: they stay in memory, as the inventory they
// build.
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

// segments are where a recording opened light reads its polls again:
// each segment's bytes as they were read from the file, compressed.
type segments struct {
	light bool // polls are kept light (OpenLight, format version 2)
	lim   Limits

	mu    sync.Mutex
	list  []segment
	cache map[int][]Frame // the segments read again last, by number
	order []int           // cache's keys, oldest first
}

// segment is a part of the file read whole once: its bytes, and the
// frames it held.
type segment struct {
	raw      []byte
	first, n int // the index of its first frame in the recording, and how many
}

// cachedSegments is how many segments read again are kept decoded: a
// playback and its fold ahead each read on from their own.
const cachedSegments = 8

// ended takes the frames of a segment read whole (its bytes raw), which
// the recording will number from first: their polls are made light.
func (s *segments) ended(batch []Frame, first int, raw []byte) {
	if !s.light || raw == nil {
		return
	}
	s.mu.Lock()
	k := len(s.list)
	s.list = append(s.list, segment{raw: raw, first: first, n: len(batch)})
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
	return frames[i-sg.first], nil
}

// read is segment k's frames, decoded again from its bytes unless among
// the last read.
func (s *segments) read(k int) ([]Frame, segment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sg := s.list[k]
	if frames, ok := s.cache[k]; ok {
		return frames, sg, nil
	}
	fr, err := newSegmentReader(bytes.NewReader(sg.raw), s.lim)
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

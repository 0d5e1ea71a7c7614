package record

import (
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"os"
	"reflect"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// DefaultMaxBytes is the size at which a recording is rotated: FILE moves
// to FILE.1 (FILE.1 to FILE.2, ...) and a new FILE starts with every
// queue manager in full.
const DefaultMaxBytes = 64 << 20

// keepRotated is how many rotated files are kept.
const keepRotated = 4

// Writer appends frames to a recording. It is safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	path string
	// rotated is where Create moved the recording it found at path, ""
	// when there was none.
	rotated string
	max     int64
	head    Header
	f       *os.File
	cnt     *countWriter
	gz      *gzip.Writer
	enc     *gob.Encoder
	seg     segmentState
	last    map[string]*lastPoll
	err     error

	// events are the small frames (alert transitions, actions, presence)
	// the dashboard hands over from its Update: they are written by a
	// goroutine of their own, so the UI never waits on the file, nor on a
	// large snapshot being written.
	events  chan Frame
	drained chan struct{}
	qmu     sync.Mutex // guards closed and the send on events
	closed  bool
	dropped int
}

// eventQueue is how many small frames may wait for the writer; beyond it
// they are counted as dropped and Err says so.
const eventQueue = 1024

// lastPoll is what the previous frame of a queue manager said, for deltas.
type lastPoll struct {
	seq    uint64
	info   mqwatch.QMgrInfo
	queues map[string]Queue
	heads  map[string][]mqwatch.Summary
	invs   map[string]*mqwatch.Inventory
}

type countWriter struct {
	f *os.File
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.f.Write(p)
	c.n += int64(n)
	return n, err
}

// Create starts a recording at path (rotating an existing file away);
// maxBytes <= 0 is DefaultMaxBytes.
func Create(path string, maxBytes int64, h Header) (*Writer, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	h.Magic, h.Version = Magic, Version
	w := &Writer{path: path, max: maxBytes, head: h, events: make(chan Frame, eventQueue), drained: make(chan struct{})}
	if _, err := os.Stat(path); err == nil { // as open decides to rotate
		w.rotated = path + ".1"
	}
	if err := w.open(); err != nil {
		return nil, err
	}
	go w.drain()
	return w, nil
}

// drain writes the queued small frames in the order they were handed over.
func (w *Writer) drain() {
	defer close(w.drained)
	for fr := range w.events {
		w.mu.Lock()
		w.write(fr)
		w.mu.Unlock()
	}
}

// enqueue hands a small frame to drain without waiting.
func (w *Writer) enqueue(fr Frame) {
	w.qmu.Lock()
	defer w.qmu.Unlock()
	if w.closed {
		return
	}
	select {
	case w.events <- fr:
	default:
		w.dropped++
	}
}

func (w *Writer) open() error {
	if _, err := os.Stat(w.path); err == nil {
		rotate(w.path)
	}
	f, err := safeload.CreatePrivate(w.path)
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	w.f, w.cnt = f, &countWriter{f: f}
	w.gz = gzip.NewWriter(w.cnt)
	w.enc = gob.NewEncoder(w.gz)
	w.seg = segmentState{}
	w.last = map[string]*lastPoll{}
	h := w.head
	if h.Started.IsZero() {
		h.Started = time.Now()
	}
	if err := w.enc.Encode(h); err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	return w.gz.Flush()
}

// rotate shifts path to path.1, path.1 to path.2, ..., dropping the oldest.
func rotate(path string) {
	for i := keepRotated - 1; i >= 1; i-- {
		os.Rename(fmt.Sprintf("%s.%d", path, i), fmt.Sprintf("%s.%d", path, i+1))
	}
	os.Rename(path, path+".1")
}

// Path is the file the recording is written to.
func (w *Writer) Path() string { return w.path }

// Rotated is where the recording found at Path when this one started was
// moved (Path + ".1"), "" when there was none: a restart never replaces a
// recording silently.
func (w *Writer) Rotated() string { return w.rotated }

// Err is the first error writing, nil while all went well. A recording
// that cannot be written never stops the dashboard.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Close writes what is queued and ends the recording.
func (w *Writer) Close() error {
	w.qmu.Lock()
	if !w.closed {
		w.closed = true
		close(w.events)
	}
	dropped := w.dropped
	w.qmu.Unlock()
	<-w.drained
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil && dropped > 0 {
		w.err = fmt.Errorf("recording: %d alert, action or presence events dropped: the writer fell behind", dropped)
	}
	if w.f == nil {
		return w.err
	}
	err := w.gz.Close()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	w.f = nil
	if w.err == nil && err != nil {
		w.err = fmt.Errorf("recording: %w", err)
	}
	return w.err
}

func (w *Writer) write(fr Frame) {
	if w.f == nil || w.err != nil {
		return
	}
	if w.seg.ends(fr, w.cnt.n) {
		if err := w.newSegment(fr.Chunk != nil); err != nil {
			w.err = fmt.Errorf("recording: %w", err)
			return
		}
	}
	w.seg.frames++
	if err := w.enc.Encode(fr); err != nil {
		w.err = fmt.Errorf("recording: %w", err)
		return
	}
	if err := w.gz.Flush(); err != nil {
		w.err = fmt.Errorf("recording: %w", err)
		return
	}
	if w.cnt.n >= w.max {
		w.gz.Close()
		w.f.Close()
		w.f = nil
		if err := w.open(); err != nil {
			w.err = err
		}
	}
}

// Snapshot records a poll. A partial snapshot is not recorded: the poll's
// own follows with everything it read.
func (w *Writer) Snapshot(s *mqwatch.Snapshot) {
	if s == nil || s.Partial() {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return
	}
	last := w.last[s.QMgrName]
	if last == nil {
		last = &lastPoll{queues: map[string]Queue{}, heads: map[string][]mqwatch.Summary{}, invs: map[string]*mqwatch.Inventory{}}
		w.last[s.QMgrName] = last
	}
	p := &Poll{QMgr: s.QMgrName, Time: s.Time, Connected: s.Connected, Stale: s.Stale, Err: encodeErr(s.Err),
		NextRetry: s.NextRetry, Stats: s.Poll}
	if !s.Connected {
		// The figures are the last good poll's: nothing new to record.
		w.write(Frame{Poll: p})
		return
	}
	if s.QMgr != last.info || last.seq == 0 {
		info := s.QMgr
		p.Info, last.info = &info, info
	}
	last.diffQueues(p, s)
	last.diffHeads(p, s)
	last.diffInvs(p, s, s.Seq == last.seq+1, func(c Chunk) { w.write(Frame{Chunk: &c}) })
	last.seq = s.Seq
	w.write(Frame{Poll: p})
}

func (l *lastPoll) diffQueues(p *Poll, s *mqwatch.Snapshot) {
	seen := make(map[string]bool, len(s.Queues))
	for _, v := range s.Queues {
		q := encodeQueue(v)
		seen[v.Info.Name] = true
		if old, ok := l.queues[v.Info.Name]; !ok || old != q {
			p.Queues = append(p.Queues, q)
			l.queues[v.Info.Name] = q
		}
	}
	for name := range l.queues {
		if !seen[name] {
			p.Gone = append(p.Gone, name)
			delete(l.queues, name)
		}
	}
}

func (l *lastPoll) diffHeads(p *Poll, s *mqwatch.Snapshot) {
	for name, h := range s.Heads {
		if old, ok := l.heads[name]; !ok || !reflect.DeepEqual(old, h) {
			if p.Heads == nil {
				p.Heads = map[string][]mqwatch.Summary{}
			}
			p.Heads[name] = h
			l.heads[name] = h
		}
	}
	for name := range l.heads {
		if _, ok := s.Heads[name]; !ok {
			p.HeadsGone = append(p.HeadsGone, name)
			delete(l.heads, name)
		}
	}
}

// diffInvs writes an inventory in full the first time and after a gap
// (a snapshot this writer did not see, or the watcher's own resync); else
// only what its delta says.
func (l *lastPoll) diffInvs(p *Poll, s *mqwatch.Snapshot, contiguous bool, chunk func(Chunk)) {
	for name, inv := range s.Inventories {
		old, known := l.invs[name]
		if known && old == inv {
			continue
		}
		d, hasDelta := s.Deltas[name]
		var gap Inv
		switch {
		case known && contiguous && hasDelta && !d.Resync:
			in := Inv{Queue: name, Cols: encodeCols(d.Added)}
			for i := range d.Dropped {
				in.DropKeys = appendKey(in.DropKeys, d.Dropped[i].Key())
			}
			p.Invs = append(p.Invs, in)
		case known && arrivalDiff(old, inv, &gap):
			// A snapshot was missed (the recorder was busy): the change
			// is worked out from the arrival numbers, not written whole.
			gap.Queue = name
			gap.Cols, gap.Added = encodeCols(gap.Added), nil
			for _, k := range gap.Dropped {
				gap.DropKeys = appendKey(gap.DropKeys, k)
			}
			gap.Dropped = nil
			p.Invs = append(p.Invs, gap)
		default:
			full := true
			buf := make([]mqwatch.Summary, 0, min(inv.Len(), chunkLen))
			inv.Each(func(_ int, sum *mqwatch.Summary) bool {
				if buf = append(buf, *sum); len(buf) == chunkLen {
					chunk(Chunk{At: s.Time, QMgr: s.QMgrName, Inv: Inv{Queue: name, Full: full, Cols: encodeCols(buf)}})
					full, buf = false, buf[:0]
				}
				return true
			})
			if full || len(buf) > 0 {
				chunk(Chunk{At: s.Time, QMgr: s.QMgrName, Inv: Inv{Queue: name, Full: full, Cols: encodeCols(buf)}})
			}
		}
		l.invs[name] = inv
	}
	for name := range l.invs {
		if _, ok := s.Inventories[name]; !ok {
			p.Invs = append(p.Invs, Inv{Queue: name, Gone: true})
			delete(l.invs, name)
		}
	}
}

// Transitions records alert transitions and acknowledgements; it has the
// shape of model.AlertBook.OnChange.
func (w *Writer) Transitions(ts []model.Transition) {
	for _, t := range ts {
		w.enqueue(Frame{Alert: &AlertEvent{Kind: t.Kind, At: t.At, Episode: t.Episode}})
	}
}

// Entry records an entry of the journal as it is written.
func (w *Writer) Entry(e journal.Entry) { w.enqueue(Frame{Entry: &e}) }

// Presence records who is in the war room.
func (w *Writer) Presence(p Presence) { w.enqueue(Frame{Presence: &p}) }

// arrivalDiff works out what changed from old to cur by their arrival
// numbers (each queue's messages are numbered as first seen, in queue
// order): those of old missing from cur were dropped, those past old's
// last were added. False when the numbers do not allow it (a re-read
// that numbered afresh): then the inventory is written whole.
func arrivalDiff(old, cur *mqwatch.Inventory, d *Inv) bool {
	i, j := 0, 0
	var last uint64
	for i < old.Len() && j < cur.Len() {
		a, b := old.Arrival(i), cur.Arrival(j)
		switch {
		case b <= last && j > 0:
			return false
		case a == b:
			if old.Key(i) != cur.Key(j) {
				return false
			}
			last = b
			i, j = i+1, j+1
		case a < b:
			d.Dropped = append(d.Dropped, old.Key(i))
			i++
		default:
			return false
		}
	}
	for ; i < old.Len(); i++ {
		d.Dropped = append(d.Dropped, old.Key(i))
	}
	for ; j < cur.Len(); j++ {
		s := *cur.At(j)
		s.BodyPrefix = nil
		d.Added = append(d.Added, s)
	}
	return true
}

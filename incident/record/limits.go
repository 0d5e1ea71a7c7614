package record

import (
	"fmt"
	"reflect"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// Limits bound what reading a recording may take: a recording is a file
// like any other, and may come from someone else. A file over a cap is
// refused with an error that names the cap and where it was passed. The
// zero value of a field means its default; the defaults leave room for any
// recording poisonwatch writes at the default --record-max-bytes.
type Limits struct {
	// MaxBytes caps the decompressed stream. Default: 64 times the file's
	// size (a recording compresses about 8 times), at least 256 MiB and at
	// most 4 GiB.
	MaxBytes int64
	// MaxMemory caps what the frames decode to, estimated from each frame's
	// encoding before it is decoded (an hour of the built-in demo, 12 MB,
	// comes to 250 MB). Default: 256 times the file's size, at least 256
	// MiB and at most 8 GiB.
	MaxMemory int64
	// MaxFrameBytes caps one frame, decompressed. Default 64 MiB.
	MaxFrameBytes int64
	// MaxFrames caps the frames. Default 4,000,000.
	MaxFrames int
	// MaxQMgrs caps the queue managers; MaxQueues a queue manager's queues
	// (listed, with an inventory or with a head); MaxSummaries the
	// messages of one queue's inventory or head. Defaults 1,000, 100,000
	// and 4,000,000.
	MaxQMgrs     int
	MaxQueues    int
	MaxSummaries int
}

// Default caps (MaxBytes and MaxMemory scale with the file; see Limits).
const (
	DefaultMaxFrameBytes = 64 << 20
	DefaultMaxFrames     = 4_000_000
	DefaultMaxQMgrs      = 1_000
	DefaultMaxQueues     = 100_000
	DefaultMaxSummaries  = 4_000_000
)

// withDefaults fills the caps not set for a file of size bytes.
func (l Limits) withDefaults(size int64) Limits {
	scaled := func(v, times, lo, hi int64) int64 {
		if v > 0 {
			return v
		}
		if size > hi/times {
			return hi
		}
		return max(size*times, lo)
	}
	l.MaxBytes = scaled(l.MaxBytes, 64, 256<<20, 4<<30)
	l.MaxMemory = scaled(l.MaxMemory, 256, 256<<20, 8<<30)
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	if l.MaxFrameBytes <= 0 {
		l.MaxFrameBytes = DefaultMaxFrameBytes
	}
	def(&l.MaxFrames, DefaultMaxFrames)
	def(&l.MaxQMgrs, DefaultMaxQMgrs)
	def(&l.MaxQueues, DefaultMaxQueues)
	def(&l.MaxSummaries, DefaultMaxSummaries)
	return l
}

// structSize is the largest struct a frame decodes into: the scan counts
// every struct at it, so its estimate is never below what decoding holds.
// A new kind of frame is covered as soon as it is a field of Frame.
var structSize = func() int {
	largest := 0
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			largest = max(largest, int(t.Size()))
			for i := range t.NumField() {
				if t.Field(i).IsExported() {
					walk(t.Field(i).Type)
				}
			}
		}
	}
	walk(reflect.TypeFor[Header]())
	walk(reflect.TypeFor[Frame]())
	return largest
}()

// tally follows the size of what the frames rebuild (the queue managers,
// their queues, inventories and heads) without rebuilding it, so a
// recording whose inventories grow past the caps is refused while it is
// read, before a player or a report folds it.
type tally struct {
	lim Limits
	qm  map[string]*qmTally
}

type qmTally struct {
	queues map[string]bool
	invs   map[string]int
	heads  map[string]int
}

func (t *tally) of(name string) (*qmTally, error) {
	q := t.qm[name]
	if q == nil {
		if len(t.qm) >= t.lim.MaxQMgrs {
			return nil, fmt.Errorf("more than %d queue managers (the cap)", t.lim.MaxQMgrs)
		}
		q = &qmTally{queues: map[string]bool{}, invs: map[string]int{}, heads: map[string]int{}}
		t.qm[name] = q
	}
	return q, nil
}

// frame counts fr in, or says which cap it passes.
func (t *tally) frame(fr *Frame) error {
	switch {
	case fr.Chunk != nil:
		q, err := t.of(fr.Chunk.QMgr)
		if err != nil {
			return err
		}
		return q.inv(t.lim, fr.Chunk.QMgr, fr.Chunk.Inv, true)
	case fr.Poll != nil:
		q, err := t.of(fr.Poll.QMgr)
		if err != nil {
			return err
		}
		return q.poll(t.lim, fr.Poll)
	}
	return nil
}

func (q *qmTally) poll(lim Limits, p *Poll) error {
	for _, v := range p.Queues {
		q.queues[v.Info.Name] = true
	}
	for _, name := range p.Gone {
		delete(q.queues, name)
	}
	for name, h := range p.Heads {
		q.heads[name] = len(h)
		if len(h) > lim.MaxSummaries {
			return fmt.Errorf("%s %s: a head of %d messages, more than %d (the cap on a queue's messages)", p.QMgr, name, len(h), lim.MaxSummaries)
		}
	}
	for _, name := range p.HeadsGone {
		delete(q.heads, name)
	}
	for _, in := range p.Invs {
		if err := q.inv(lim, p.QMgr, in, false); err != nil {
			return err
		}
	}
	if n := max(len(q.queues), len(q.invs), len(q.heads)); n > lim.MaxQueues {
		return fmt.Errorf("%s: more than %d queues (the cap on a queue manager's queues)", p.QMgr, lim.MaxQueues)
	}
	return nil
}

// inv counts an inventory's change; chunk: a chunk's, whose Full starts
// the inventory afresh and whose other parts add to it.
func (q *qmTally) inv(lim Limits, qmgr string, in Inv, chunk bool) error {
	switch {
	case in.Gone:
		delete(q.invs, in.Queue)
		return nil
	case in.Full:
		q.invs[in.Queue] = 0
	}
	n := q.invs[in.Queue] + in.added()
	if !chunk {
		n = max(n-in.dropped(), 0)
	}
	q.invs[in.Queue] = n
	if n > lim.MaxSummaries {
		return fmt.Errorf("%s %s: an inventory of more than %d messages (the cap on a queue's messages)", qmgr, in.Queue, lim.MaxSummaries)
	}
	if len(q.invs) > lim.MaxQueues {
		return fmt.Errorf("%s: more than %d inventories (the cap on a queue manager's queues)", qmgr, lim.MaxQueues)
	}
	return nil
}

// gobLimits are the scan's caps for l.
func (l Limits) gobLimits() safeload.GobLimits {
	return safeload.GobLimits{MaxValueBytes: l.MaxFrameBytes, StructSize: structSize}
}

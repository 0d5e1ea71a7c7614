package mqwatch

import (
	"math"
	"time"
)

// chunkSize is how many messages one chunk holds. At about 60 bytes a
// message a chunk is one 64 KiB allocation, and a million-message inventory
// is under a thousand chunk pointers to copy per poll.
const chunkSize = 1024

// chunk is append-only columnar storage shared between inventories: per
// message only what differs from message to message (identity, times, sizes,
// counters) and the number of its Class. Elements below an inventory's end
// are never written again; used records how far any inventory has filled the
// chunk, so that appending from an older inventory (whose end is below used)
// copies the chunk instead of overwriting a newer one's elements. Only the
// goroutine that appends writes, and readers never read used.
//
// The optional columns stay nil while every message has the common value
// (no CorrelId, no MQDLH put time, nothing that needs spilling): a chunk that
// needs one is copied with it, never changed under a reader.
type chunk struct {
	used    int
	arrBase uint64 // Arrival of the chunk's first message; arrival holds offsets from it
	msgID   [chunkSize][24]byte
	put     [chunkSize]int64 // PutTime as UnixNano; noTime when zero
	arrival [chunkSize]uint32
	length  [chunkSize]int32
	backout [chunkSize]int32
	expiry  [chunkSize]int32
	class   [chunkSize]uint32
	bodyOff [chunkSize]uint16

	correl *[chunkSize][24]byte
	dlhPut *[chunkSize]int64
	// spill holds, whole, the rare summary whose fields do not fit the
	// columns (a time outside UnixNano's range or not in UTC, a body offset
	// past 64 KiB, ...), so that nothing read back ever differs from what
	// was stored.
	spill *[chunkSize]*Summary
}

const noTime = math.MinInt64

// encodeTime returns t as UnixNano, and false when that would not give t back
// exactly (another location, a monotonic reading, out of range).
func encodeTime(t time.Time) (int64, bool) {
	if t.IsZero() {
		return noTime, true
	}
	n := t.UnixNano()
	return n, n != noTime && t == time.Unix(0, n).UTC()
}

func decodeTime(n int64) time.Time {
	if n == noTime {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// columns says which optional columns a summary needs in a chunk, and whether
// it must be spilled instead.
type columns struct{ correl, dlhPut, spill bool }

func (c *chunk) needs(s *Summary, j int) columns {
	var n columns
	n.correl = s.CorrelId != [24]byte{}
	_, putOK := encodeTime(s.PutTime)
	_, dlhOK := encodeTime(s.DLHPutTime)
	n.dlhPut = !s.DLHPutTime.IsZero()
	base := c.arrBase
	if j == 0 {
		base = s.Arrival
	}
	n.spill = !putOK || !dlhOK || s.Arrival < base || s.Arrival-base > math.MaxUint32 ||
		s.Length < math.MinInt32 || s.Length > math.MaxInt32 || s.BodyOffset < 0 || s.BodyOffset > math.MaxUint16
	return n
}

// lacks reports whether the chunk must gain a column to hold a summary.
func (c *chunk) lacks(n columns) bool {
	return (n.correl && c.correl == nil) || (n.dlhPut && c.dlhPut == nil) || (n.spill && c.spill == nil)
}

// clone returns a new chunk holding the first k elements of c: writing it
// races with no reader.
func (c *chunk) clone(k int) *chunk {
	d := &chunk{}
	d.copyFrom(c, k)
	return d
}

// grow adds the columns n asks for that c lacks; only for a chunk no reader
// has seen yet.
func (c *chunk) grow(n columns) {
	if n.correl && c.correl == nil {
		c.correl = new([chunkSize][24]byte)
	}
	if n.dlhPut && c.dlhPut == nil {
		c.dlhPut = new([chunkSize]int64)
		for j := range c.dlhPut {
			c.dlhPut[j] = noTime
		}
	}
	if n.spill && c.spill == nil {
		c.spill = new([chunkSize]*Summary)
	}
}

// copyFrom copies the first k elements of src, optional columns included.
func (c *chunk) copyFrom(src *chunk, k int) {
	c.used, c.arrBase = k, src.arrBase
	copy(c.msgID[:k], src.msgID[:k])
	copy(c.put[:k], src.put[:k])
	copy(c.arrival[:k], src.arrival[:k])
	copy(c.length[:k], src.length[:k])
	copy(c.backout[:k], src.backout[:k])
	copy(c.expiry[:k], src.expiry[:k])
	copy(c.class[:k], src.class[:k])
	copy(c.bodyOff[:k], src.bodyOff[:k])
	if src.correl != nil {
		c.correl = new([chunkSize][24]byte)
		copy(c.correl[:k], src.correl[:k])
	}
	if src.dlhPut != nil {
		c.dlhPut = new([chunkSize]int64)
		copy(c.dlhPut[:k], src.dlhPut[:k])
		for j := k; j < chunkSize; j++ {
			c.dlhPut[j] = noTime
		}
	}
	if src.spill != nil {
		c.spill = new([chunkSize]*Summary)
		copy(c.spill[:k], src.spill[:k])
	}
}

// set writes element j from s, whose class is cls; the chunk has every
// column s needs.
func (c *chunk) set(j int, s *Summary, cls uint32, n columns) {
	if j == 0 {
		c.arrBase = s.Arrival
	}
	c.msgID[j], c.class[j] = s.MsgId, cls
	if c.correl != nil {
		c.correl[j] = s.CorrelId
	}
	if n.spill {
		cp := *s
		cp.BodyPrefix = nil
		c.spill[j] = &cp
		c.put[j], c.arrival[j] = noTime, 0
		return
	}
	c.put[j], _ = encodeTime(s.PutTime)
	if c.dlhPut != nil {
		c.dlhPut[j], _ = encodeTime(s.DLHPutTime)
	}
	c.arrival[j] = uint32(s.Arrival - c.arrBase)
	c.length[j], c.backout[j], c.expiry[j] = int32(s.Length), s.BackoutCount, s.Expiry
	c.bodyOff[j] = uint16(s.BodyOffset)
}

// spilled returns element j's spilled summary, nil when it has none.
func (c *chunk) spilled(j int) *Summary {
	if c.spill == nil {
		return nil
	}
	return c.spill[j]
}

// load materialises element j, whose class is cls.
func (c *chunk) load(j int, cls *Class, s *Summary) {
	if sp := c.spilled(j); sp != nil {
		*s = *sp
		return
	}
	*s = Summary{MsgId: c.msgID[j], PutTime: decodeTime(c.put[j]), BackoutCount: c.backout[j],
		Length: int(c.length[j]), Expiry: c.expiry[j], BodyOffset: int(c.bodyOff[j]),
		Arrival: c.arrBase + uint64(c.arrival[j])}
	if c.correl != nil {
		s.CorrelId = c.correl[j]
	}
	if c.dlhPut != nil {
		s.DLHPutTime = decodeTime(c.dlhPut[j])
	}
	cls.apply(s)
}

func (c *chunk) key(j int) Key {
	k := Key{MsgId: c.msgID[j]}
	if c.correl != nil {
		k.CorrelId = c.correl[j]
	}
	return k
}

func (c *chunk) arrivalAt(j int) uint64 {
	if sp := c.spilled(j); sp != nil {
		return sp.Arrival
	}
	return c.arrBase + uint64(c.arrival[j])
}

// queuedAt is Summary.QueuedAt of element j.
func (c *chunk) queuedAt(j int) time.Time {
	if sp := c.spilled(j); sp != nil {
		return sp.QueuedAt()
	}
	if c.dlhPut != nil && c.dlhPut[j] != noTime {
		return decodeTime(c.dlhPut[j])
	}
	return decodeTime(c.put[j])
}

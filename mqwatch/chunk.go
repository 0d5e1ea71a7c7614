package mqwatch

import (
	"math"
	"time"
)

// chunkSize is how many messages one chunk holds: about 36 KiB of columns,
// and a million-message inventory is under a thousand chunk pointers to copy
// per poll.
const chunkSize = 1024

// chunk is append-only columnar storage shared between inventories: per
// message only what differs from message to message (identity, times, sizes,
// counters) and the number of its Class. Elements below an inventory's end
// are never written again; used records how far any inventory has filled the
// chunk, so that appending from an older inventory (whose end is below used)
// copies the chunk instead of overwriting a newer one's elements. Only the
// goroutine that appends writes, and readers never read used.
//
// The optional columns stay nil while every message of the chunk has the
// common value: a MsgId that begins as the first message's does (a queue
// manager's MsgIds share their first 16 bytes), no CorrelId, no MQDLH put
// time, an Arrival one more than the previous one, BackoutCount 0, Expiry
// unlimited, nothing that needs spilling. A chunk that needs one is copied
// with it, never changed under a reader.
type chunk struct {
	used    int
	arrBase uint64   // Arrival of the chunk's first message
	idHead  [16]byte // the first 16 bytes of the first message's MsgId
	idTail  [chunkSize][8]byte
	put     [chunkSize]int64 // PutTime as UnixNano; noTime when zero
	length  [chunkSize]int32
	class   [chunkSize]uint32
	bodyOff [chunkSize]uint16

	id      *[chunkSize][24]byte
	correl  *[chunkSize][24]byte
	dlhPut  *[chunkSize]int64
	arrival *[chunkSize]uint32 // offsets from arrBase
	backout *[chunkSize]int32
	expiry  *[chunkSize]int32
	// spill holds, whole, the rare summary whose fields do not fit the
	// columns (a time outside UnixNano's range or not in UTC, a body offset
	// past 64 KiB, ...), so that nothing read back ever differs from what
	// was stored.
	spill *[chunkSize]*Summary
}

const (
	noTime      = math.MinInt64
	unlimited   = -1 // MQEI_UNLIMITED
	idHeadBytes = 16
)

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
type columns struct{ id, correl, dlhPut, arrival, backout, expiry, spill bool }

func (c *chunk) needs(s *Summary, j int) columns {
	base, head := c.arrBase, c.idHead
	if j == 0 {
		base, head = s.Arrival, [16]byte(s.MsgId[:idHeadBytes])
	}
	_, putOK := encodeTime(s.PutTime)
	_, dlhOK := encodeTime(s.DLHPutTime)
	return columns{
		id:      [16]byte(s.MsgId[:idHeadBytes]) != head,
		correl:  s.CorrelId != [24]byte{},
		dlhPut:  !s.DLHPutTime.IsZero(),
		arrival: s.Arrival != base+uint64(j),
		backout: s.BackoutCount != 0,
		expiry:  s.Expiry != unlimited,
		spill: s.Group != nil || !putOK || !dlhOK || s.Arrival < base || s.Arrival-base > math.MaxUint32 ||
			s.Length < math.MinInt32 || s.Length > math.MaxInt32 || s.BodyOffset < 0 || s.BodyOffset > math.MaxUint16,
	}
}

// lacks reports whether the chunk must gain a column to hold a summary.
func (c *chunk) lacks(n columns) bool {
	return (n.id && c.id == nil) || (n.correl && c.correl == nil) || (n.dlhPut && c.dlhPut == nil) ||
		(n.arrival && c.arrival == nil) || (n.backout && c.backout == nil) || (n.expiry && c.expiry == nil) ||
		(n.spill && c.spill == nil)
}

// clone returns a new chunk holding the first k elements of c: writing it
// races with no reader.
func (c *chunk) clone(k int) *chunk {
	d := &chunk{used: k, arrBase: c.arrBase, idHead: c.idHead}
	copy(d.idTail[:k], c.idTail[:k])
	copy(d.put[:k], c.put[:k])
	copy(d.length[:k], c.length[:k])
	copy(d.class[:k], c.class[:k])
	copy(d.bodyOff[:k], c.bodyOff[:k])
	d.id = cloneCol(c.id, k)
	d.correl = cloneCol(c.correl, k)
	d.dlhPut = cloneCol(c.dlhPut, k)
	d.arrival = cloneCol(c.arrival, k)
	d.backout = cloneCol(c.backout, k)
	d.expiry = cloneCol(c.expiry, k)
	d.spill = cloneCol(c.spill, k)
	return d
}

func cloneCol[T any](col *[chunkSize]T, k int) *[chunkSize]T {
	if col == nil {
		return nil
	}
	d := new([chunkSize]T)
	copy(d[:k], col[:k])
	return d
}

// grow adds the columns n asks for that c lacks, holding the common value
// for the elements already written; only for a chunk no reader has seen yet.
func (c *chunk) grow(n columns) {
	k := c.used
	if n.id && c.id == nil {
		id := new([chunkSize][24]byte)
		for j := 0; j < k; j++ {
			id[j] = c.msgID(j)
		}
		c.id = id
	}
	if n.correl && c.correl == nil {
		c.correl = new([chunkSize][24]byte)
	}
	if n.dlhPut && c.dlhPut == nil {
		c.dlhPut = fill[int64](noTime, k)
	}
	if n.arrival && c.arrival == nil {
		c.arrival = new([chunkSize]uint32)
		for j := 0; j < k; j++ {
			c.arrival[j] = uint32(j)
		}
	}
	if n.backout && c.backout == nil {
		c.backout = new([chunkSize]int32)
	}
	if n.expiry && c.expiry == nil {
		c.expiry = fill[int32](unlimited, k)
	}
	if n.spill && c.spill == nil {
		c.spill = new([chunkSize]*Summary)
	}
}

func fill[T any](v T, k int) *[chunkSize]T {
	col := new([chunkSize]T)
	for j := 0; j < k; j++ {
		col[j] = v
	}
	return col
}

// set writes element j from s, whose class is cls; the chunk has every
// column s needs.
func (c *chunk) set(j int, s *Summary, cls uint32, n columns) {
	if j == 0 {
		c.arrBase, c.idHead = s.Arrival, [16]byte(s.MsgId[:idHeadBytes])
	}
	c.idTail[j], c.class[j] = [8]byte(s.MsgId[idHeadBytes:]), cls
	setCol(c.id, j, s.MsgId)
	setCol(c.correl, j, s.CorrelId)
	if n.spill {
		cp := *s
		cp.BodyPrefix = nil
		c.spill[j] = &cp
		c.put[j] = noTime
		setCol(c.dlhPut, j, noTime)
		setCol(c.arrival, j, 0)
		return
	}
	c.put[j], _ = encodeTime(s.PutTime)
	if c.dlhPut != nil {
		c.dlhPut[j], _ = encodeTime(s.DLHPutTime)
	}
	setCol(c.arrival, j, uint32(s.Arrival-c.arrBase))
	setCol(c.backout, j, s.BackoutCount)
	setCol(c.expiry, j, s.Expiry)
	c.length[j], c.bodyOff[j] = int32(s.Length), uint16(s.BodyOffset)
}

func setCol[T any](col *[chunkSize]T, j int, v T) {
	if col != nil {
		col[j] = v
	}
}

func getCol[T any](col *[chunkSize]T, j int, common T) T {
	if col == nil {
		return common
	}
	return col[j]
}

func (c *chunk) msgID(j int) [24]byte {
	if c.id != nil {
		return c.id[j]
	}
	var id [24]byte
	copy(id[:idHeadBytes], c.idHead[:])
	copy(id[idHeadBytes:], c.idTail[j][:])
	return id
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
	*s = Summary{MsgId: c.msgID(j), CorrelId: getCol(c.correl, j, [24]byte{}), PutTime: decodeTime(c.put[j]),
		BackoutCount: getCol(c.backout, j, 0), Length: int(c.length[j]), Expiry: getCol[int32](c.expiry, j, unlimited),
		DLHPutTime: decodeTime(getCol[int64](c.dlhPut, j, noTime)), BodyOffset: int(c.bodyOff[j]),
		Arrival: c.arrivalAt(j)}
	cls.Apply(s)
}

func (c *chunk) key(j int) Key {
	return Key{MsgId: c.msgID(j), CorrelId: getCol(c.correl, j, [24]byte{})}
}

func (c *chunk) arrivalAt(j int) uint64 {
	if sp := c.spilled(j); sp != nil {
		return sp.Arrival
	}
	return c.arrBase + uint64(getCol(c.arrival, j, uint32(j)))
}

// queuedAt is Summary.QueuedAt of element j.
func (c *chunk) queuedAt(j int) time.Time {
	if sp := c.spilled(j); sp != nil {
		return sp.QueuedAt()
	}
	if t := getCol[int64](c.dlhPut, j, noTime); t != noTime {
		return decodeTime(t)
	}
	return decodeTime(c.put[j])
}

package mqwatch

import "time"

// Inventory is an immutable, cheaply shareable list of message summaries in
// queue order. A new snapshot shares every chunk with the previous one, so
// publishing a million-message DEADQ each poll copies a thousand pointers,
// not a million summaries.
//
// Summaries are stored compactly (about 60 bytes a message: identity, times,
// sizes, counters, and the number of a Class that holds everything the
// messages of one kind share) and materialised when read. An inventory does
// not keep the body prefix: the message screen reads the message itself.
//
// Append, DropHead and Filter may run on one goroutine at a time for
// inventories that share storage (the watcher's); readers of published
// inventories may run on any.
type Inventory struct {
	chunks  []*chunk
	start   int // index of the first live summary in chunks[0]
	n       int
	tab     *classTable
	classes []*Class // the prefix of tab.all this inventory may read
}

// Len returns the number of summaries.
func (inv *Inventory) Len() int {
	if inv == nil {
		return 0
	}
	return inv.n
}

func (inv *Inventory) locate(i int) (*chunk, int) {
	j := inv.start + i
	return inv.chunks[j/chunkSize], j % chunkSize
}

// At returns the i-th summary (0 = head of the queue), materialised into a
// new Summary the caller may keep. Loops over a whole inventory use Each,
// Load or the accessors (Key, Arrival, QueuedAt, ClassID), which allocate
// nothing.
func (inv *Inventory) At(i int) *Summary {
	s := new(Summary)
	inv.Load(i, s)
	return s
}

// Load materialises the i-th summary into s.
func (inv *Inventory) Load(i int, s *Summary) {
	c, j := inv.locate(i)
	c.load(j, inv.classes[c.class[j]], s)
}

// Each calls fn for every summary in order until fn returns false. The
// summary fn is given is reused for the next: fn must copy what it keeps.
func (inv *Inventory) Each(fn func(i int, s *Summary) bool) {
	var s Summary
	for i := 0; i < inv.Len(); i++ {
		inv.Load(i, &s)
		if !fn(i, &s) {
			return
		}
	}
}

// Key returns the i-th summary's identity.
func (inv *Inventory) Key(i int) Key {
	c, j := inv.locate(i)
	return c.key(j)
}

// Arrival returns the i-th summary's Arrival.
func (inv *Inventory) Arrival(i int) uint64 {
	c, j := inv.locate(i)
	return c.arrivalAt(j)
}

// QueuedAt returns the i-th summary's QueuedAt.
func (inv *Inventory) QueuedAt(i int) time.Time {
	c, j := inv.locate(i)
	return c.queuedAt(j)
}

// ClassID returns the number of the i-th summary's class, below NumClasses.
// Numbers hold for this inventory and those appended to it, not across a
// rebuild: use them within one pass, not as lasting names.
func (inv *Inventory) ClassID(i int) int {
	c, j := inv.locate(i)
	return int(c.class[j])
}

// NumClasses returns how many class numbers the inventory's summaries use
// at most.
func (inv *Inventory) NumClasses() int {
	if inv == nil {
		return 0
	}
	return len(inv.classes)
}

// Class returns class number id; it must not be changed.
func (inv *Inventory) Class(id int) *Class { return inv.classes[id] }

// Append returns a new inventory with items added at the tail; inv is unchanged.
func (inv *Inventory) Append(items ...Summary) *Inventory {
	out := inv.appendItems(items)
	if out.tab.bloated(out.n) {
		return out.reencoded()
	}
	return out
}

func (inv *Inventory) appendItems(items []Summary) *Inventory {
	out := inv.clone()
	var owned *chunk // created by this call: no reader has it yet
	for i := range items {
		s := &items[i]
		cls := s.Class()
		id := out.tab.id(&cls)
		end := out.start + out.n
		ci, off := end/chunkSize, end%chunkSize
		switch {
		case ci == len(out.chunks):
			owned = &chunk{}
			out.chunks = append(out.chunks, owned)
		case out.chunks[ci].used != off:
			owned = out.chunks[ci].clone(off)
			out.chunks[ci] = owned
		}
		c := out.chunks[ci]
		need := c.needs(s, off)
		if c.lacks(need) {
			if c != owned {
				owned = c.clone(off)
				out.chunks[ci], c = owned, owned
			}
			c.grow(need)
		}
		c.set(off, s, id, need)
		c.used = off + 1
		out.n++
	}
	out.classes = out.tab.all
	return out
}

// DropHead returns a new inventory without its first k summaries.
func (inv *Inventory) DropHead(k int) *Inventory {
	out := inv.clone()
	k = min(max(k, 0), out.n)
	out.start += k
	out.n -= k
	drop := out.start / chunkSize
	if out.n == 0 {
		return &Inventory{tab: out.tab, classes: out.classes}
	}
	out.chunks = out.chunks[drop:]
	out.start -= drop * chunkSize
	return out
}

// Filter returns a new inventory holding the summaries keep accepts. It copies;
// it serves removals in the middle of a queue, which are rare.
func (inv *Inventory) Filter(keep func(*Summary) bool) *Inventory {
	out := &Inventory{tab: inv.table()}
	batch := make([]Summary, 0, chunkSize)
	inv.Each(func(_ int, s *Summary) bool {
		if keep(s) {
			batch = append(batch, *s)
		}
		if len(batch) == cap(batch) {
			out = out.Append(batch...)
			batch = batch[:0]
		}
		return true
	})
	return out.Append(batch...)
}

// reencoded is the inventory stored again with a class table of only the
// classes its summaries use.
func (inv *Inventory) reencoded() *Inventory {
	out := &Inventory{tab: newClassTable()}
	batch := make([]Summary, 0, chunkSize)
	inv.Each(func(_ int, s *Summary) bool {
		batch = append(batch, *s)
		if len(batch) == cap(batch) {
			out = out.appendItems(batch)
			batch = batch[:0]
		}
		return true
	})
	return out.appendItems(batch)
}

func (inv *Inventory) table() *classTable {
	if inv == nil || inv.tab == nil {
		return newClassTable()
	}
	return inv.tab
}

func (inv *Inventory) clone() *Inventory {
	if inv == nil {
		return &Inventory{tab: newClassTable()}
	}
	return &Inventory{chunks: append([]*chunk(nil), inv.chunks...), start: inv.start, n: inv.n,
		tab: inv.table(), classes: inv.classes}
}

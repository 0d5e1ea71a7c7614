package mqwatch

// Inventory is an immutable, cheaply shareable list of message summaries in
// queue order. A new snapshot shares every chunk with the previous one, so
// publishing a 100k-message DEADQ each poll copies a few hundred pointers, not
// 100k summaries.
type Inventory struct {
	chunks []*chunk
	start  int // index of the first live summary in chunks[0]
	n      int
}

const chunkSize = 256

// chunk is append-only storage shared between inventories. Elements below an
// inventory's end are never written again; used records how far any inventory
// has filled the chunk, so that appending from an older inventory (whose end is
// below used) copies the chunk instead of overwriting a newer one's elements.
// Only the watcher goroutine writes, and readers never read used.
type chunk struct {
	items [chunkSize]Summary
	used  int
}

// Len returns the number of summaries.
func (inv *Inventory) Len() int {
	if inv == nil {
		return 0
	}
	return inv.n
}

// At returns the i-th summary (0 = head of the queue). The pointer must be
// treated as read-only.
func (inv *Inventory) At(i int) *Summary {
	j := inv.start + i
	return &inv.chunks[j/chunkSize].items[j%chunkSize]
}

// Each calls fn for every summary in order until fn returns false.
func (inv *Inventory) Each(fn func(i int, s *Summary) bool) {
	for i := 0; i < inv.Len(); i++ {
		if !fn(i, inv.At(i)) {
			return
		}
	}
}

// Append returns a new inventory with items added at the tail; inv is unchanged.
func (inv *Inventory) Append(items ...Summary) *Inventory {
	out := inv.clone()
	for len(items) > 0 {
		end := out.start + out.n
		ci, off := end/chunkSize, end%chunkSize
		switch {
		case ci == len(out.chunks):
			out.chunks = append(out.chunks, &chunk{})
		case out.chunks[ci].used != off:
			c := &chunk{used: off}
			copy(c.items[:off], out.chunks[ci].items[:off])
			out.chunks[ci] = c
		}
		c := out.chunks[ci]
		k := copy(c.items[off:], items)
		c.used = off + k
		out.n += k
		items = items[k:]
	}
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
		return &Inventory{}
	}
	out.chunks = out.chunks[drop:]
	out.start -= drop * chunkSize
	return out
}

// Filter returns a new inventory holding the summaries keep accepts. It copies;
// it serves removals in the middle of a queue, which are rare.
func (inv *Inventory) Filter(keep func(*Summary) bool) *Inventory {
	var kept []Summary
	inv.Each(func(_ int, s *Summary) bool {
		if keep(s) {
			kept = append(kept, *s)
		}
		return true
	})
	return (*Inventory)(nil).Append(kept...)
}

func (inv *Inventory) clone() *Inventory {
	if inv == nil {
		return &Inventory{}
	}
	return &Inventory{chunks: append([]*chunk(nil), inv.chunks...), start: inv.start, n: inv.n}
}

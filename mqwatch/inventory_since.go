package mqwatch

// Since says how inv continues prev, an inventory it was made from by
// dropping at the head and appending at the tail (the watcher's polls, with
// any number of snapshots between them): inv holds prev[dropped :
// dropped+kept], then inv[kept:], which are new. A reader that keeps counts
// of prev subtracts what went and adds what came, instead of counting a
// million messages again.
//
// Where the two share storage (chunks only grow, and an element below an
// inventory's end is never written again) a whole chunk is compared by its
// pointer, so a million-message inventory costs under a thousand compares;
// elsewhere messages are compared one by one by class and identity, all a
// counter can tell apart. ok is false when inv's head is not in prev's
// storage nor a copy of its last chunk (a Filter, a re-read, a re-encode,
// another queue, or all of prev gone): count inv afresh.
func (inv *Inventory) Since(prev *Inventory) (dropped, kept int, ok bool) {
	switch {
	case prev.Len() == 0:
		return 0, 0, true
	case inv.Len() == 0:
		return prev.Len(), 0, true
	case inv.tab != prev.tab:
		return 0, 0, false
	}
	dropped = -1
	for x, c := range prev.chunks {
		if c == inv.chunks[0] {
			dropped = x*chunkSize + inv.start - prev.start
			break
		}
	}
	if dropped < 0 {
		// Appending from a version whose tail chunk a sibling had written
		// copies that chunk: inv's head may be a copy of prev's last one.
		dropped = (len(prev.chunks)-1)*chunkSize + inv.start - prev.start
	}
	if dropped < 0 || dropped > prev.n && inv.chunks[0] != prev.chunks[len(prev.chunks)-1] {
		return 0, 0, false
	}
	if dropped > prev.n {
		// inv begins past prev's end in a chunk they share: all of prev
		// went, and inv is new.
		return prev.n, 0, true
	}
	return dropped, inv.common(prev, dropped), true
}

// common is how many of inv's first messages are prev's from position at on.
func (inv *Inventory) common(prev *Inventory, at int) int {
	limit := min(prev.n-at, inv.n)
	i := 0
	for i < limit {
		pc, pj := prev.locate(at + i)
		ic, ij := inv.locate(i)
		if pc == ic && pj == ij {
			i += min(chunkSize-ij, limit-i)
			continue
		}
		if prev.classes[pc.class[pj]] != inv.classes[ic.class[ij]] || pc.key(pj) != ic.key(ij) {
			break
		}
		i++
	}
	return i
}

package record

import (
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Cols is a list of summaries as columns (format version 2): the fields
// most messages share are written once per distinct Class, and each
// message keeps only its identity, times, sizes and counters, times and
// arrival numbers as differences from the message before. A million dead
// letters decode from primitive slices, not a million structs of forty
// fields, and compress better. A summary the columns cannot carry exactly
// (a group position, a time in another location or outside UnixNano's
// range) is written whole in Spill.
type Cols struct {
	Classes []mqwatch.Class
	Class   []uint32 // per message, an index into Classes
	IDs     []byte   // MsgId, 24 bytes a message
	Correl  []byte   // CorrelId, 24 bytes a message; empty when every one is zero
	Put     []int64  // PutTime as UnixNano (0: none), less the previous message's
	DLHPut  []int64  // DLHPutTime, the same way; empty when none has one
	Arrival []uint64 // Arrival less the previous message's
	Length  []int64
	Backout []int32 // empty when every one is 0
	Expiry  []int32
	BodyOff []int64
	Spill   []Spilled
}

// Spilled is a summary written whole, at its place in the list.
type Spilled struct {
	At int
	S  mqwatch.Summary
}

// Len is how many summaries c holds.
func (c *Cols) Len() int {
	if c == nil {
		return 0
	}
	return len(c.Class)
}

// colTime is t as the columns keep it, and whether that gives t back.
func colTime(t time.Time) (int64, bool) {
	if t.IsZero() {
		return 0, true
	}
	n := t.UnixNano()
	return n, n != 0 && t == time.Unix(0, n).UTC()
}

func timeOf(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// fitsCols says s can be written as columns and read back equal.
func fitsCols(s *mqwatch.Summary) bool {
	_, put := colTime(s.PutTime)
	_, dlh := colTime(s.DLHPutTime)
	return put && dlh && s.Group == nil
}

// encodeCols writes list as columns, without body prefixes (an inventory
// keeps none); nil for an empty list.
func encodeCols(list []mqwatch.Summary) *Cols {
	n := len(list)
	if n == 0 {
		return nil
	}
	c := &Cols{Class: make([]uint32, n), IDs: make([]byte, 0, 24*n), Put: make([]int64, n), Arrival: make([]uint64, n),
		Length: make([]int64, n), Expiry: make([]int32, n), BodyOff: make([]int64, n)}
	index := map[mqwatch.Class]uint32{}
	var correl, dlh, backout bool
	var prevPut, prevDLH int64
	var prevArr uint64
	dlhs, backs := make([]int64, n), make([]int32, n)
	for i := range list {
		s := &list[i]
		if !fitsCols(s) {
			sp := Spilled{At: i, S: *s}
			sp.S.BodyPrefix = nil
			c.Spill = append(c.Spill, sp)
		}
		cls := s.Class()
		id, ok := index[cls]
		if !ok {
			id = uint32(len(c.Classes))
			index[cls] = id
			c.Classes = append(c.Classes, cls)
		}
		c.Class[i] = id
		c.IDs = append(c.IDs, s.MsgId[:]...)
		correl = correl || s.CorrelId != [24]byte{}
		put, _ := colTime(s.PutTime)
		d, _ := colTime(s.DLHPutTime)
		c.Put[i], dlhs[i], prevPut, prevDLH = put-prevPut, d-prevDLH, put, d
		dlh = dlh || d != 0
		c.Arrival[i], prevArr = s.Arrival-prevArr, s.Arrival
		c.Length[i], c.Expiry[i], c.BodyOff[i], backs[i] = int64(s.Length), s.Expiry, int64(s.BodyOffset), s.BackoutCount
		backout = backout || s.BackoutCount != 0
	}
	if correl {
		c.Correl = make([]byte, 0, 24*n)
		for i := range list {
			c.Correl = append(c.Correl, list[i].CorrelId[:]...)
		}
	}
	if dlh {
		c.DLHPut = dlhs
	}
	if backout {
		c.Backout = backs
	}
	return c
}

// errCols is a column list that does not add up.
var errCols = errors.New("inconsistent columns")

// check says whether c's columns agree with each other: a recording may
// come from anyone, and decode indexes by them.
func (c *Cols) check() error {
	n := len(c.Class)
	lens := []struct {
		name string
		got  int
		want int
		opt  bool
	}{{"IDs", len(c.IDs), 24 * n, false}, {"Correl", len(c.Correl), 24 * n, true}, {"Put", len(c.Put), n, false},
		{"DLHPut", len(c.DLHPut), n, true}, {"Arrival", len(c.Arrival), n, false}, {"Length", len(c.Length), n, false},
		{"Backout", len(c.Backout), n, true}, {"Expiry", len(c.Expiry), n, false}, {"BodyOff", len(c.BodyOff), n, false}}
	for _, l := range lens {
		if l.got != l.want && !(l.opt && l.got == 0) {
			return fmt.Errorf("%w: %d messages but %d in %s", errCols, n, l.got, l.name)
		}
	}
	for i, id := range c.Class {
		if int(id) >= len(c.Classes) {
			return fmt.Errorf("%w: message %d of class %d, of %d classes", errCols, i, id, len(c.Classes))
		}
	}
	last := -1
	for _, sp := range c.Spill {
		if sp.At <= last || sp.At >= n {
			return fmt.Errorf("%w: a message written whole at %d, after %d, of %d", errCols, sp.At, last, n)
		}
		last = sp.At
	}
	return nil
}

// each calls fn with every summary in order, in one Summary reused
// between calls; check must have passed.
func (c *Cols) each(fn func(s *mqwatch.Summary)) {
	var s mqwatch.Summary
	var put, dlh int64
	var arr uint64
	spill := c.Spill
	for i, id := range c.Class {
		put += c.Put[i]
		arr += c.Arrival[i]
		if len(c.DLHPut) > 0 {
			dlh += c.DLHPut[i]
		}
		if len(spill) > 0 && spill[0].At == i {
			s = spill[0].S
			spill = spill[1:]
			fn(&s)
			continue
		}
		s = mqwatch.Summary{PutTime: timeOf(put), DLHPutTime: timeOf(dlh), Arrival: arr, Length: int(c.Length[i]),
			Expiry: c.Expiry[i], BodyOffset: int(c.BodyOff[i])}
		c.Classes[id].Apply(&s)
		copy(s.MsgId[:], c.IDs[24*i:])
		if len(c.Correl) > 0 {
			copy(s.CorrelId[:], c.Correl[24*i:])
		}
		if len(c.Backout) > 0 {
			s.BackoutCount = c.Backout[i]
		}
		fn(&s)
	}
}

// checked is check for a list that may be absent.
func (c *Cols) checked() error {
	if c == nil {
		return nil
	}
	return c.check()
}

// list is what in adds, from either form.
func (in *Inv) list() []mqwatch.Summary {
	if in.Cols != nil {
		return in.Cols.summaries()
	}
	return in.Added
}

// appendInv is inv with what in adds, read from its columns in batches
// rather than as one list: a chunk's 20,000 summaries are never held whole.
func appendInv(inv *mqwatch.Inventory, in *Inv) *mqwatch.Inventory {
	if in.Cols == nil {
		return inv.Append(in.Added...)
	}
	batch := make([]mqwatch.Summary, 0, 1024)
	in.Cols.each(func(s *mqwatch.Summary) {
		if batch = append(batch, *s); len(batch) == cap(batch) {
			inv, batch = inv.Append(batch...), batch[:0]
		}
	})
	return inv.Append(batch...)
}

// summaries is c as a list.
func (c *Cols) summaries() []mqwatch.Summary {
	out := make([]mqwatch.Summary, 0, c.Len())
	c.each(func(s *mqwatch.Summary) { out = append(out, *s) })
	return out
}

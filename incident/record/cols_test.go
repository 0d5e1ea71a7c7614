package record

import (
	"bytes"
	"encoding/gob"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// awkward are summaries the columns must give back exactly: times zero,
// in UTC and elsewhere, at the epoch; arrival numbers going down; group
// positions; CorrelIds, backout counts and MQDLH put times on some only;
// a body prefix, which an inventory does not keep.
func awkward() []mqwatch.Summary {
	cet := time.FixedZone("CET", 3600)
	base := time.Date(2026, 12, 4, 21, 30, 0, 123456789, time.UTC)
	var out []mqwatch.Summary
	for i := range 40 {
		s := dead(i)
		s.Arrival = uint64(1000 - i*7%13)
		s.PutTime = base.Add(time.Duration(i) * time.Second)
		switch i % 8 {
		case 1:
			s.PutTime = time.Time{}
		case 2:
			s.PutTime = s.PutTime.In(cet)
		case 3:
			s.CorrelId[0], s.BackoutCount = byte(i), int32(i)
		case 4:
			s.DLHPutTime = base.Add(-time.Hour)
		case 5:
			s.Group = &mqwatch.GroupPos{MsgSeqNumber: 2, MsgFlags: 8}
		case 6:
			s.PutTime = time.Unix(0, 0).UTC()
		case 7:
			s.BodyPrefix, s.DLHReason, s.Expiry, s.Length = []byte("body"), 2053, -1, 1<<40
		}
		out = append(out, s)
	}
	return out
}

// The columns give back every summary as it was, through gob as a
// recording writes them (an inventory keeps no body prefix).
func TestColsGiveBackEverySummary(t *testing.T) {
	in := awkward()
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(encodeCols(in)); err != nil {
		t.Fatal(err)
	}
	var c Cols
	if err := gob.NewDecoder(&buf).Decode(&c); err != nil {
		t.Fatal(err)
	}
	if err := c.check(); err != nil {
		t.Fatal(err)
	}
	got := c.summaries()
	// gob keeps a time's offset, not its zone's name: as version 1 did.
	var whole bytes.Buffer
	if err := gob.NewEncoder(&whole).Encode(in); err != nil {
		t.Fatal(err)
	}
	in = nil
	if err := gob.NewDecoder(&whole).Decode(&in); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in) {
		t.Fatalf("%d summaries back, %d written", len(got), len(in))
	}
	for i := range in {
		want := in[i]
		want.BodyPrefix = nil
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("summary %d:\n got %+v\nwant %+v", i, got[i], want)
		}
	}
	if n := len(c.Spill); n != 15 {
		t.Errorf("%d written whole, want 15 (the times in CET or at the epoch, the group positions)", n)
	}
	if encodeCols(nil) != nil {
		t.Error("an empty list is written as columns")
	}
}

// Columns that do not add up are refused, never indexed past their end.
func TestColsThatDoNotAddUpAreRefused(t *testing.T) {
	for name, spoil := range map[string]func(c *Cols){
		"short IDs":            func(c *Cols) { c.IDs = c.IDs[:len(c.IDs)-1] },
		"short Put":            func(c *Cols) { c.Put = c.Put[:1] },
		"Correl of another n":  func(c *Cols) { c.Correl = make([]byte, 24) },
		"class past the table": func(c *Cols) { c.Class[3] = uint32(len(c.Classes)) },
		"spill past the end":   func(c *Cols) { c.Spill = append(c.Spill, Spilled{At: len(c.Class)}) },
		"spill out of order":   func(c *Cols) { c.Spill[0], c.Spill[1] = c.Spill[1], c.Spill[0] },
		"long Expiry":          func(c *Cols) { c.Expiry = append(c.Expiry, 0) },
	} {
		c := encodeCols(awkward())
		spoil(c)
		if err := c.check(); !errors.Is(err, errCols) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzCols builds columns of any shape from the input: check refuses them
// or reading them back does not panic.
func FuzzCols(f *testing.F) {
	f.Add([]byte{3, 2, 1, 0, 5, 9, 200, 7})
	f.Add(bytes.Repeat([]byte{1}, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		at := func(i int) int {
			if len(data) == 0 {
				return 0
			}
			return int(data[i%len(data)])
		}
		c := encodeCols(awkward()[:at(0)%41])
		if c == nil {
			c = &Cols{}
		}
		cut := func(n int) int { return max(n-at(1)%3, 0) }
		c.IDs = c.IDs[:cut(len(c.IDs))]
		c.Put = c.Put[:cut(len(c.Put))]
		if len(c.Class) > 0 {
			c.Class[at(2)%len(c.Class)] = uint32(at(3))
		}
		c.Spill = append(c.Spill, Spilled{At: at(4) - 3})
		c.Backout = make([]int32, at(5)%4)
		if err := c.check(); err != nil {
			return
		}
		n := 0
		c.each(func(*mqwatch.Summary) { n++ })
		if n != c.Len() {
			t.Fatalf("%d read of %d", n, c.Len())
		}
	})
}

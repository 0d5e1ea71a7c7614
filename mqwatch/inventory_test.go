package mqwatch

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
)

func sums(from, n int) []Summary {
	out := make([]Summary, n)
	for i := range out {
		out[i].Arrival = uint64(from + i)
	}
	return out
}

func arrivals(inv *Inventory) []uint64 {
	var out []uint64
	inv.Each(func(_ int, s *Summary) bool { out = append(out, s.Arrival); return true })
	return out
}

func TestInventory(t *testing.T) {
	tests := []struct {
		name  string
		build func() *Inventory
		want  []uint64
	}{
		{"empty", func() *Inventory { return nil }, nil},
		{"append across chunks", func() *Inventory {
			return (*Inventory)(nil).Append(sums(0, 300)...).DropHead(298)
		}, []uint64{298, 299}},
		{"drop everything", func() *Inventory {
			return (*Inventory)(nil).Append(sums(0, 10)...).DropHead(50)
		}, nil},
		{"append after drop", func() *Inventory {
			return (*Inventory)(nil).Append(sums(0, 3)...).DropHead(2).Append(sums(3, 1)...)
		}, []uint64{2, 3}},
		{"filter middle", func() *Inventory {
			return (*Inventory)(nil).Append(sums(0, 5)...).Filter(func(s *Summary) bool { return s.Arrival%2 == 0 })
		}, []uint64{0, 2, 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := arrivals(tt.build())
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("got %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestInventoryIsImmutableWhenSiblingsAppend(t *testing.T) {
	base := (*Inventory)(nil).Append(sums(0, 10)...)
	a := base.Append(Summary{Arrival: 100})
	b := base.Append(Summary{Arrival: 200})
	if got := a.At(10).Arrival; got != 100 {
		t.Fatalf("a's appended element overwritten by sibling: %d", got)
	}
	if got := b.At(10).Arrival; got != 200 {
		t.Fatalf("b.At(10) = %d, want 200", got)
	}
	if base.Len() != 10 {
		t.Fatalf("base changed length: %d", base.Len())
	}
}

// Readers of a published inventory run concurrently with the watcher appending
// to newer ones; -race proves they share no written memory.
func TestInventoryConcurrentReadersAndWriter(t *testing.T) {
	inv := (*Inventory)(nil).Append(sums(0, 100)...)
	var wg sync.WaitGroup
	published := make(chan *Inventory, 64)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for p := range published {
			var total uint64
			p.Each(func(_ int, s *Summary) bool { total += s.Arrival; return true })
			_ = total
		}
	}()
	for i := 0; i < 50; i++ {
		inv = inv.Append(sums(100+i*10, 10)...).DropHead(3)
		published <- inv
	}
	close(published)
	wg.Wait()
	if inv.Len() != 100+500-150 {
		t.Fatalf("len %d", inv.Len())
	}
}

// full is a summary with every field set, so that a field the inventory
// forgets shows.
func full(i int) Summary {
	s := Summary{PutTime: time.Date(2026, 11, 30, 3, 4, 5, 670_000_000, time.UTC).Add(time.Duration(i) * time.Second),
		BackoutCount: int32(i % 4), Persistent: i%2 == 0, Priority: int32(i % 10), Length: 1000 + i,
		Format: "MQDEAD", CCSID: 1208, Encoding: 546, Report: 0x100, Expiry: int32(i) - 1,
		PutApplName: "amqrmppa", UserId: "mqm", HasDLH: true, DLHReason: 2085 + int32(i%3),
		DLHDestQ: "INVOICE.IN", DLHDestQMgr: "QM2", DLHPutAppl: "runmqdlq", DLHFormat: "MQHRF2  ",
		DLHPutTime: time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Millisecond * 10),
		HasRFH2:    true, JMSDst: "queue:///INVOICE.IN", JMSType: "Order", BodyFormat: "MQSTR", BodyCCSID: 819,
		BodyOffset: 412, ToolReply: i%7 == 0, DecodeErr: "", Arrival: uint64(10 + 2*i)}
	s.MsgId[0], s.MsgId[1], s.MsgId[23] = byte(i), byte(i>>8), 0xAA
	if i%3 == 0 {
		s.CorrelId[5] = byte(i)
	}
	return s
}

// Every field of every summary comes back as it was stored (but the body
// prefix, which inventories do not keep), including the summaries that do
// not fit the compact columns and are stored whole.
func TestInventoryRoundTrip(t *testing.T) {
	local := time.FixedZone("CET", 3600)
	odd := []struct {
		name string
		edit func(*Summary)
	}{
		{"plain", func(*Summary) {}},
		{"no times", func(s *Summary) { s.PutTime, s.DLHPutTime = time.Time{}, time.Time{} }},
		{"put time at the Unix epoch", func(s *Summary) { s.PutTime = time.Unix(0, 0).UTC() }},
		{"put time in another zone", func(s *Summary) { s.PutTime = s.PutTime.In(local) }},
		{"put time with a monotonic reading", func(s *Summary) { s.DLHPutTime = time.Now() }},
		{"put time before 1678", func(s *Summary) { s.PutTime = time.Date(1, 1, 1, 0, 0, 0, 10_000_000, time.UTC) }},
		{"put time after 2262", func(s *Summary) { s.DLHPutTime = time.Date(9999, 12, 31, 23, 59, 59, 990_000_000, time.UTC) }},
		{"arrival below the chunk's first", func(s *Summary) { s.Arrival = 1 }},
		{"arrival far past the chunk's first", func(s *Summary) { s.Arrival = 1 << 40 }},
		{"length past int32", func(s *Summary) { s.Length = 1 << 33 }},
		{"negative body offset", func(s *Summary) { s.BodyOffset = -1 }},
		{"body offset past 64 KiB", func(s *Summary) { s.BodyOffset = 70_000 }},
		{"decode error", func(s *Summary) { s.DecodeErr = "MQRFH2 at offset 364: StrucLength 9 is too short" }},
	}
	for _, tt := range odd {
		t.Run(tt.name, func(t *testing.T) {
			var want []Summary
			for i := 0; i < 2*chunkSize+10; i++ {
				s := full(i)
				if i%97 == 5 {
					tt.edit(&s)
				}
				want = append(want, s)
			}
			// In polls of 100, as the watcher appends, plus one body prefix
			// that must not be kept.
			want[3].BodyPrefix = []byte("kept by heads, not by inventories")
			var inv *Inventory
			for i := 0; i < len(want); i += 100 {
				inv = inv.Append(want[i:min(i+100, len(want))]...)
			}
			want[3].BodyPrefix = nil
			checkInventory(t, inv, want)
			checkInventory(t, inv.DropHead(chunkSize+3), want[chunkSize+3:])
		})
	}
}

func checkInventory(t *testing.T, inv *Inventory, want []Summary) {
	t.Helper()
	if inv.Len() != len(want) {
		t.Fatalf("len %d, want %d", inv.Len(), len(want))
	}
	for i := range want {
		got := inv.At(i)
		if !reflect.DeepEqual(*got, want[i]) {
			t.Fatalf("summary %d:\n got %+v\nwant %+v", i, *got, want[i])
		}
		if inv.Key(i) != want[i].Key() || inv.Arrival(i) != want[i].Arrival || !inv.QueuedAt(i).Equal(want[i].QueuedAt()) {
			t.Fatalf("summary %d: accessors disagree with the summary", i)
		}
		if *inv.Class(inv.ClassID(i)) != want[i].Class() {
			t.Fatalf("summary %d: class %+v, want %+v", i, *inv.Class(inv.ClassID(i)), want[i].Class())
		}
	}
}

// Messages of one kind share one class, however many there are.
func TestInventoryClassesAreShared(t *testing.T) {
	var items []Summary
	for i := 0; i < 5000; i++ {
		s := full(i)
		s.DLHReason, s.ToolReply, s.Persistent, s.Priority = 2085+int32(i%3), false, true, 4
		items = append(items, s)
	}
	inv := (*Inventory)(nil).Append(items...)
	if got := inv.NumClasses(); got != 3 {
		t.Fatalf("%d classes, want 3 (one per reason)", got)
	}
}

// A queue whose every message is of a class of its own, consumed and
// replaced for a long time, keeps a class table the size of what it holds:
// classes of messages long gone are dropped.
func TestInventoryClassTableStaysBounded(t *testing.T) {
	var inv *Inventory
	for poll := 0; poll < 400; poll++ {
		var batch []Summary
		for i := 0; i < 100; i++ {
			s := full(poll*100 + i)
			s.DLHDestQ = fmt.Sprintf("Q%d", poll*100+i)
			batch = append(batch, s)
		}
		inv = inv.Append(batch...)
		if inv.Len() > 1000 {
			inv = inv.DropHead(inv.Len() - 1000)
		}
	}
	if n := inv.NumClasses(); n > 2*1000+compactClasses {
		t.Fatalf("class table holds %d classes for 1,000 messages", n)
	}
	want := make([]Summary, 0, 1000)
	for i := 40000 - 1000; i < 40000; i++ {
		s := full(i)
		s.DLHDestQ = fmt.Sprintf("Q%d", i)
		want = append(want, s)
	}
	checkInventory(t, inv, want)
}

// A chunk gains its optional columns (CorrelId, MQDLH put time, spilled
// summaries) while readers hold inventories that end inside it. Without
// -race too: each inventory reads back what was appended before it, and no
// later Append replaces a column of a chunk it holds (a column grown in place
// is what a reader would race with; Append clones the chunk first).
func TestInventoryColumnsGrowUnderReaders(t *testing.T) {
	plain := func(i int) Summary {
		s := full(i)
		s.CorrelId, s.DLHPutTime = [24]byte{}, time.Time{}
		return s
	}
	want := make([]Summary, 60)
	for i := range want {
		want[i] = plain(i)
		switch i % 4 {
		case 1:
			want[i].CorrelId[0] = 1
		case 2:
			want[i].DLHPutTime = want[i].PutTime
		case 3:
			want[i].PutTime = want[i].PutTime.In(time.FixedZone("X", 60))
		}
	}
	var wg sync.WaitGroup
	published := make(chan *Inventory, 64)
	bad := make(chan string, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var s Summary
		for p := range published {
			for i := 0; i < p.Len(); i++ {
				p.Load(i, &s)
				_, _, _ = p.Key(i), p.QueuedAt(i), p.Class(p.ClassID(i))
				if !reflect.DeepEqual(s, want[i]) {
					select {
					case bad <- fmt.Sprintf("inventory of %d: summary %d is %+v, want %+v", p.Len(), i, s, want[i]):
					default:
					}
				}
			}
		}
	}()
	inv := (*Inventory)(nil).Append(want[0], want[1])
	var held []*Inventory
	var columns [][][7]any
	for i := 2; i < len(want); i++ {
		inv = inv.Append(want[i])
		held, columns = append(held, inv), append(columns, chunkColumns(inv))
		published <- inv
	}
	close(published)
	wg.Wait()
	close(bad)
	if msg, ok := <-bad; ok {
		t.Fatal(msg)
	}
	for k, p := range held {
		if got := chunkColumns(p); !slices.Equal(got, columns[k]) { // == on pointers: identity
			t.Fatalf("inventory of %d: a later Append replaced a column of a chunk it holds", p.Len())
		}
	}
}

// chunkColumns is the identity of each optional column of each chunk inv
// holds: a reader's chunk is never grown in place.
func chunkColumns(inv *Inventory) [][7]any {
	var out [][7]any
	for _, c := range inv.chunks {
		out = append(out, [7]any{c.id, c.correl, c.dlhPut, c.arrival, c.backout, c.expiry, c.spill})
	}
	return out
}

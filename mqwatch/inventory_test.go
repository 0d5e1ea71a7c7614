package mqwatch

import (
	"sync"
	"testing"
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

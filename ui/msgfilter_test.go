package ui

import (
	"slices"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// filterInv is a DEADQ inventory of n messages from serial from on, with
// arrivals ascending as a watcher's are; every third is bound for AUDIT.IN.
func filterInv(inv *mqwatch.Inventory, from, n int) *mqwatch.Inventory {
	var sums []mqwatch.Summary
	for i := from; i < from+n; i++ {
		dest := "INVOICE.IN"
		if i%3 == 0 {
			dest = "AUDIT.IN"
		}
		s := dlqSummary(i, 2085, dest)
		s.MsgId[19] = byte(i >> 16)
		s.Arrival = uint64(i + 1)
		sums = append(sums, s)
	}
	return inv.Append(sums...)
}

func allRows(inv *mqwatch.Inventory) []int {
	out := make([]int, inv.Len())
	for i := range out {
		out[i] = i
	}
	return out
}

// wantRows is what matching every message from scratch gives.
func wantRows(inv *mqwatch.Inventory, query string) []int {
	v := make([]int8, inv.Len())
	matchInto(v, query, inv, allRows(inv))
	var out []int
	for i, x := range v {
		if x == match {
			out = append(out, i)
		}
	}
	return out
}

func runScan(t *testing.T, f *msgFilter, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		t.Fatal("no background scan")
	}
	if !f.done(cmd().(filterDoneMsg)) {
		t.Fatal("the scan's result was dropped")
	}
}

// The filter's verdicts follow the inventory from poll to poll: head
// removals and tail arrivals cost matching the arrivals only, anything else
// a new background scan; the rows are always those a full match gives.
func TestMessageFilterFollowsTheInventory(t *testing.T) {
	const q = "audit"
	var f msgFilter
	inv := filterInv(nil, 0, 3*asyncFilterAt)
	rows, cmd := f.rows(inv, allRows(inv), q)
	if len(rows) != 0 || !f.pending {
		t.Fatalf("a new query on %d messages gave %d rows at once, pending %v", inv.Len(), len(rows), f.pending)
	}
	runScan(t, &f, cmd)
	steps := []struct {
		name   string
		next   func(*mqwatch.Inventory) *mqwatch.Inventory
		rescan bool
	}{
		{"same inventory", func(i *mqwatch.Inventory) *mqwatch.Inventory { return i }, false},
		{"head taken, tail arrived", func(i *mqwatch.Inventory) *mqwatch.Inventory { return filterInv(i.DropHead(100), 20_000, 100) }, false},
		{"everything taken, new arrivals", func(i *mqwatch.Inventory) *mqwatch.Inventory { return filterInv(i.DropHead(i.Len()), 30_000, 50) }, false},
		{"removal from the middle", func(i *mqwatch.Inventory) *mqwatch.Inventory {
			return filterInv(i, 40_000, 3*asyncFilterAt).Filter(func(s *mqwatch.Summary) bool { return s.Arrival != 30_010 })
		}, true},
	}
	for _, st := range steps {
		inv = st.next(inv)
		rows, cmd = f.rows(inv, allRows(inv), q)
		if st.rescan {
			runScan(t, &f, cmd)
			rows, cmd = f.rows(inv, allRows(inv), q)
		}
		if cmd != nil {
			t.Fatalf("%s: a background scan where only arrivals needed matching", st.name)
		}
		if want := wantRows(inv, q); !slices.Equal(rows, want) {
			t.Fatalf("%s: %d rows, want %d", st.name, len(rows), len(want))
		}
	}
}

// A poll that lands while the background scan runs is caught up when the
// scan's result arrives.
func TestMessageFilterScanOutlivedByAPoll(t *testing.T) {
	const q = "audit"
	var f msgFilter
	inv := filterInv(nil, 0, 2*asyncFilterAt)
	_, cmd := f.rows(inv, allRows(inv), q)
	next := filterInv(inv.DropHead(10), 2*asyncFilterAt, 30)
	if rows, again := f.rows(next, allRows(next), q); len(rows) != 0 || again != nil {
		t.Fatalf("while scanning: %d rows, another scan %v", len(rows), again != nil)
	}
	runScan(t, &f, cmd)
	rows, again := f.rows(next, allRows(next), q)
	if again != nil {
		t.Fatal("the poll's arrivals started a background scan")
	}
	if want := wantRows(next, q); !slices.Equal(rows, want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
}

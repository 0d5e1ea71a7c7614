package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// asyncFilterAt is the list size from which a new filter query is matched in
// a command instead of in Update: fuzzy matching 100k messages takes longer
// than a frame.
const asyncFilterAt = 5000

// msgFilter remembers, per message (by arrival number), whether it matches the
// current query, so a new poll only matches the messages that arrived since.
// Messages keep queue order: filtering a DEADQ narrows it, it does not rank it.
type msgFilter struct {
	query   string
	seen    map[uint64]bool
	seq     int
	pending bool
	total   int
}

// filterDoneMsg carries the matches of a full scan run off the Update path.
type filterDoneMsg struct {
	seq     int
	query   string
	matched map[uint64]bool
}

// rows returns the positions of base that match the query, and a command when
// a full scan has to run in the background first.
func (f *msgFilter) rows(inv *mqwatch.Inventory, base []int, query string) ([]int, tea.Cmd) {
	if query == "" {
		*f = msgFilter{seq: f.seq}
		return base, nil
	}
	var cmd tea.Cmd
	if query != f.query {
		*f = msgFilter{query: query, seen: map[uint64]bool{}, total: len(base), seq: f.seq}
		if len(base) >= asyncFilterAt {
			f.seq++ // a new scan: results of older ones are dropped
			f.pending = true
			cmd = scanCmd(f.seq, query, inv, base)
		}
	}
	if f.pending {
		return f.known(inv, base), cmd
	}
	var fresh []int
	for _, i := range base {
		if _, ok := f.seen[inv.Arrival(i)]; !ok {
			fresh = append(fresh, i)
		}
	}
	for a, ok := range matchRows(query, inv, fresh) {
		f.seen[a] = ok
	}
	return f.known(inv, base), cmd
}

func (f *msgFilter) known(inv *mqwatch.Inventory, base []int) []int {
	out := make([]int, 0, len(base)/4)
	for _, i := range base {
		if f.seen[inv.Arrival(i)] {
			out = append(out, i)
		}
	}
	return out
}

// done merges a background scan's result if it answers the current query.
func (f *msgFilter) done(m filterDoneMsg) bool {
	if m.seq != f.seq || m.query != f.query {
		return false // a stale scan: the operator typed on
	}
	for a, ok := range m.matched {
		f.seen[a] = ok
	}
	f.pending = false
	return true
}

// status is the line shown while a scan runs.
func (f *msgFilter) status() string {
	if f.pending {
		return fmt.Sprintf("filtering %s messages…", human(int64(f.total)))
	}
	return ""
}

func matchRows(query string, inv *mqwatch.Inventory, rows []int) map[uint64]bool {
	out := make(map[uint64]bool, len(rows))
	for _, i := range rows {
		out[inv.Arrival(i)] = false
	}
	var s mqwatch.Summary // fuzzy reads one item at a time, and the text is a new string
	for _, m := range model.Filter(query, len(rows), func(k int) string { inv.Load(rows[k], &s); return summaryText(&s) }) {
		out[inv.Arrival(rows[m.Index])] = true
	}
	return out
}

// scanCmd matches a whole (immutable) inventory off the Update path.
func scanCmd(seq int, query string, inv *mqwatch.Inventory, rows []int) tea.Cmd {
	return func() tea.Msg {
		return filterDoneMsg{seq: seq, query: query, matched: matchRows(query, inv, rows)}
	}
}

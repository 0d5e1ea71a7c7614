package ui

import (
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// asyncFilterAt is the number of messages from which matching runs in a
// command instead of in Update: fuzzy matching 100k messages takes longer
// than a frame, a million several seconds.
const asyncFilterAt = 5000

// Verdicts of the filter on one message.
const (
	unknown int8 = iota
	noMatch
	match
)

// msgFilter remembers, per position of the inventory it last saw, whether
// the message there matches the current query. A new poll's inventory is the
// last one less what consumers took from the head plus what arrived at the
// tail, so the verdicts move with the messages and only arrivals are
// matched; anything else (a re-read) matches everything again. Messages keep
// queue order: filtering a DEADQ narrows it, it does not rank it.
type msgFilter struct {
	query   string
	inv     *mqwatch.Inventory
	verdict []int8 // per position of inv
	matched int    // verdicts that say match
	seq     int
	pending bool
	total   int
}

// filterDoneMsg carries the verdicts of a scan run off the Update path.
type filterDoneMsg struct {
	seq     int
	query   string
	inv     *mqwatch.Inventory
	verdict []int8
}

// rows returns the positions of base that match the query, and a command when
// matching has to run in the background first; until it is done, the
// messages not matched yet are left out. A keystroke on a million messages
// costs no pass over them: every message is then unmatched, and the scan
// is the command's.
func (f *msgFilter) rows(inv *mqwatch.Inventory, base []int, query string) ([]int, tea.Cmd) {
	if query == "" {
		*f = msgFilter{seq: f.seq}
		return base, nil
	}
	if query != f.query {
		*f = msgFilter{query: query, seq: f.seq}
		f.follow(inv)
		return f.match(inv, base, base)
	}
	f.follow(inv)
	if f.pending {
		return f.known(base), nil
	}
	var fresh []int
	for _, i := range base {
		if f.verdict[i] == unknown {
			fresh = append(fresh, i)
		}
	}
	return f.match(inv, base, fresh)
}

// match gives fresh (positions of base) their verdicts, in the background
// when there are many.
func (f *msgFilter) match(inv *mqwatch.Inventory, base, fresh []int) ([]int, tea.Cmd) {
	if len(fresh) >= asyncFilterAt {
		f.seq++ // a new scan: results of older ones are dropped
		f.pending, f.total = true, len(fresh)
		return f.known(base), scanCmd(f.seq, f.query, inv, fresh, slices.Clone(f.verdict))
	}
	f.matched += matchInto(f.verdict, f.query, inv, fresh)
	return f.known(base), nil
}

// follow moves the verdicts onto inv, the inventory now shown.
func (f *msgFilter) follow(inv *mqwatch.Inventory) {
	if inv == f.inv && len(f.verdict) == inv.Len() {
		return
	}
	v := make([]int8, inv.Len())
	f.matched = 0
	if k, n, ok := shift(f.inv, inv); ok {
		copy(v[:n], f.verdict[k:k+n])
		f.matched = count(v[:n])
	}
	f.inv, f.verdict = inv, v
}

func count(v []int8) int {
	n := 0
	for _, x := range v {
		if x == match {
			n++
		}
	}
	return n
}

// shift finds how cur continues old: its first n messages are old's from
// position k on. Arrivals ascend along an inventory, so k is found by
// binary search; the first and last shared messages are compared whole, so
// a removal from the middle (which moves every later message) fails it.
func shift(old, cur *mqwatch.Inventory) (k, n int, ok bool) {
	if old.Len() == 0 || cur.Len() == 0 {
		return 0, 0, false
	}
	a := cur.Arrival(0)
	lo, hi := 0, old.Len()
	for lo < hi {
		m := (lo + hi) / 2
		if old.Arrival(m) < a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	k = lo
	if k == old.Len() {
		return k, 0, true // every message of old has gone
	}
	n = min(old.Len()-k, cur.Len())
	same := func(i int) bool { return old.Key(k+i) == cur.Key(i) && old.Arrival(k+i) == cur.Arrival(i) }
	return k, n, same(0) && same(n-1)
}

func (f *msgFilter) known(base []int) []int {
	if f.matched == 0 {
		return nil
	}
	out := make([]int, 0, min(len(base), f.matched))
	for _, i := range base {
		if f.verdict[i] == match {
			out = append(out, i)
		}
	}
	return out
}

// done merges a background scan's verdicts if they answer the current query.
func (f *msgFilter) done(m filterDoneMsg) bool {
	if m.seq != f.seq || m.query != f.query {
		return false // a stale scan: the operator typed on
	}
	// The scan's verdicts are complete for its inventory; when polls came
	// in meanwhile, the next rows moves them onto the current one.
	f.pending = false
	f.inv, f.verdict, f.matched = m.inv, m.verdict, count(m.verdict)
	return true
}

// status is the line shown while a scan runs.
func (f *msgFilter) status() string {
	if f.pending {
		return fmt.Sprintf("filtering %s messages…", human(int64(f.total)))
	}
	return ""
}

// matchInto sets the verdict of each of rows and returns how many match.
func matchInto(verdict []int8, query string, inv *mqwatch.Inventory, rows []int) int {
	for _, i := range rows {
		verdict[i] = noMatch
	}
	// summaryText, with each class's part made once.
	texts := make([]string, inv.NumClasses())
	text := func(k int) string {
		i := rows[k]
		id := inv.ClassID(i)
		if texts[id] == "" {
			texts[id] = " " + classText(inv.Class(id))
		}
		return shortID(inv.Key(i).MsgId) + texts[id]
	}
	ms := model.Filter(query, len(rows), text)
	for _, m := range ms {
		verdict[rows[m.Index]] = match
	}
	return len(ms)
}

// scanCmd matches rows of an (immutable) inventory off the Update path,
// adding their verdicts to the known ones (a copy, its own).
func scanCmd(seq int, query string, inv *mqwatch.Inventory, rows []int, known []int8) tea.Cmd {
	return func() tea.Msg {
		matchInto(known, query, inv, rows)
		return filterDoneMsg{seq: seq, query: query, inv: inv, verdict: known}
	}
}

package demo

import (
	"encoding/hex"
	"fmt"
	"sort"
)

// ledger follows every message a simulation produced to where it ended. A
// message is identified by its ApplIdentityData (producer and sequence
// number), which identity context carries through every move; a
// publication makes one copy per subscription, each with its own MsgId.
type ledger struct {
	expected map[string]int      // identity → copies produced
	putID    map[string][24]byte // identity → MsgId, for puts to a queue
	gone     []fate              // consumed or discarded: no longer on any queue
	order    []string            // identities in the order produced, for stable reports
	limit    int
}

type fate struct {
	ident string
	msgID [24]byte
	rule  string // "" = consumed; else the rule that discarded it
}

// maxLedger bounds how many messages a simulation follows (about 150 bytes
// each): the queues are bounded by MAXDEPTH, the ledger only by the
// simulated time, so a very long simulation stops with an error instead.
const maxLedger = 1_000_000

// errLedgerFull stops a simulation that produced more than maxLedger messages.
var errLedgerFull = fmt.Errorf("more than %d messages produced: simulate a shorter time", maxLedger)

func newLedger() *ledger {
	return &ledger{expected: map[string]int{}, putID: map[string][24]byte{}, limit: maxLedger}
}

// full reports whether the ledger can follow no more messages.
func (l *ledger) full() bool { return len(l.order) >= l.limit }

func (l *ledger) produce(ident string, msgID [24]byte, copies int, queue bool) {
	l.expected[ident] = copies
	l.order = append(l.order, ident)
	if queue {
		l.putID[ident] = msgID
	}
}

func (l *ledger) consume(ident string, msgID [24]byte) {
	l.gone = append(l.gone, fate{ident: ident, msgID: msgID})
}

func (l *ledger) discard(ident string, msgID [24]byte, rule string) {
	if rule == "" {
		rule = "unknown rule"
	}
	l.gone = append(l.gone, fate{ident: ident, msgID: msgID, rule: rule})
}

// Role is what a queue is to the scenario, for accounting and display.
type Role string

// Queue roles.
const (
	RoleInput  Role = "input"  // an application queue consumers read or producers write
	RoleBOQ    Role = "boq"    // named by some queue's BOQNAME
	RoleDeadQ  Role = "deadq"  // the queue manager's dead-letter queue
	RoleXmitQ  Role = "xmitq"  // a transmission queue
	RoleOther  Role = "other"  // reply queues, parking queues, anything else
	RoleObject Role = "object" // an alias, remote or model definition: holds no messages
)

// seen is one message found on a queue when the simulation ended.
type seen struct {
	ident  string
	msgID  [24]byte
	role   Role
	report bool
	where  string
}

// Accounting is the conservation check of a simulation: every message
// produced (a publication counts once per subscription) must be found
// exactly once: processed, still on a queue, or discarded by a named rule
// (possibly turned into a report).
type Accounting struct {
	Produced     int64 `json:"produced"`
	Consumed     int64 `json:"consumed"`
	OnInputQueue int64 `json:"on_input_queue"`
	OnBOQ        int64 `json:"on_boq"`
	OnDeadQ      int64 `json:"on_deadq"`
	OnXmitQ      int64 `json:"on_xmitq"`
	OnOtherQueue int64 `json:"on_other_queue"`
	// Discarded counts discards by the rule that made them (R2b, R4c, R6b...).
	Discarded map[string]int64 `json:"discarded"`
	// Reported counts discarded messages that were turned into a report.
	Reported int64 `json:"reported"`
	// Reports counts the report messages found on queues; they are not
	// produced messages.
	Reports   int64 `json:"reports"`
	Accounted int64 `json:"accounted"`
	// Missing, Duplicated, Unknown and DuplicateMsgIds are the failures:
	// messages not found, found more than once, found but never produced,
	// and MsgIds seen twice.
	Missing         int64    `json:"missing"`
	Duplicated      int64    `json:"duplicated"`
	Unknown         int64    `json:"unknown"`
	DuplicateMsgIds int64    `json:"duplicate_msgids"`
	Balanced        bool     `json:"balanced"`
	Problems        []string `json:"problems,omitempty"`
}

const maxProblems = 10

// balance matches what was produced with what was consumed, discarded and
// found on queues.
func (l *ledger) balance(found []seen) Accounting {
	a := Accounting{Discarded: map[string]int64{}}
	reports := map[string]int{}
	where := map[string][]seen{}
	for _, s := range found {
		if s.report {
			a.Reports++
			reports[s.ident]++
			continue
		}
		where[s.ident] = append(where[s.ident], s)
	}
	gone := map[string][]fate{}
	for _, f := range l.gone {
		gone[f.ident] = append(gone[f.ident], f)
	}
	problem := func(format string, args ...any) {
		if len(a.Problems) < maxProblems {
			a.Problems = append(a.Problems, fmt.Sprintf(format, args...))
		}
	}
	ids := map[[24]byte]string{}
	checkID := func(ident string, id [24]byte) {
		if other, dup := ids[id]; dup {
			a.DuplicateMsgIds++
			problem("MsgId %s seen for %s and %s", hex.EncodeToString(id[:]), other, ident)
		}
		ids[id] = ident
	}
	for _, ident := range l.order {
		n := l.expected[ident]
		a.Produced += int64(n)
		fs, ss := gone[ident], where[ident]
		if got := len(fs) + len(ss); got != n {
			if got < n {
				a.Missing += int64(n - got)
				problem("%s: produced %d, found %d", ident, n, got)
			} else {
				a.Duplicated += int64(got - n)
				problem("%s: produced %d, found %d times", ident, n, got)
			}
		}
		want, queue := l.putID[ident]
		for _, f := range fs {
			checkID(ident, f.msgID)
			if queue && f.msgID != want {
				problem("%s: MsgId changed from %x to %x", ident, want, f.msgID)
			}
			a.countGone(f, reports)
		}
		for _, s := range ss {
			checkID(ident, s.msgID)
			if queue && s.msgID != want {
				problem("%s: MsgId changed on %s", ident, s.where)
			}
			a.countSeen(s)
		}
		delete(gone, ident)
		delete(where, ident)
	}
	a.countUnknown(gone, where, problem)
	a.Accounted = a.Consumed + a.OnInputQueue + a.OnBOQ + a.OnDeadQ + a.OnXmitQ + a.OnOtherQueue + a.Reported
	for _, n := range a.Discarded {
		a.Accounted += n
	}
	a.Balanced = a.Missing == 0 && a.Duplicated == 0 && a.Unknown == 0 && a.DuplicateMsgIds == 0 &&
		a.Accounted == a.Produced && len(a.Problems) == 0
	return a
}

func (a *Accounting) countGone(f fate, reports map[string]int) {
	switch {
	case f.rule == "":
		a.Consumed++
	case reports[f.ident] > 0:
		reports[f.ident]--
		a.Reported++
	default:
		a.Discarded[f.rule]++
	}
}

func (a *Accounting) countSeen(s seen) {
	switch s.role {
	case RoleBOQ:
		a.OnBOQ++
	case RoleDeadQ:
		a.OnDeadQ++
	case RoleXmitQ:
		a.OnXmitQ++
	case RoleInput:
		a.OnInputQueue++
	default:
		a.OnOtherQueue++
	}
}

// countUnknown counts what was found but never produced: an accounting bug,
// or a message the scenario did not make (none should exist).
func (a *Accounting) countUnknown(gone map[string][]fate, where map[string][]seen, problem func(string, ...any)) {
	var idents []string
	for id, fs := range gone {
		a.Unknown += int64(len(fs))
		idents = append(idents, id)
	}
	for id, ss := range where {
		a.Unknown += int64(len(ss))
		idents = append(idents, id)
	}
	sort.Strings(idents)
	for _, id := range idents {
		problem("%q was found but never produced", id)
	}
}

package journal

import (
	"fmt"
	"strings"
)

// Act is an act as the views show it: its entry, with the outcome the
// entries that completed it gave it (what came back after a run, the alert
// a fix cleared). Every view folds entries with Acts, so a run whose
// messages all came back reads "all 22 came back (R10f)" everywhere, never
// "22 done" in one place.
type Act struct {
	Entry
	// Later are the entries that completed it, in order.
	Later []Entry
}

// IsAct says whether an entry is an act of its own (a row of the audit
// view) rather than a completion of one or a presence.
func (k Kind) IsAct() bool {
	switch k {
	case CameBack, Cleared, Join, Leave:
		return false
	}
	return true
}

// Acts folds entries into acts, oldest first: a come-back or a clear joins
// the act it refers to (its Outcome and Status become the act's), joins and
// leaves are left out. A completion whose act is not among entries (it
// fell off a bounded journal) is shown as an act of its own.
func Acts(entries []Entry) []Act {
	var out []Act
	at := map[uint64]int{}
	for _, e := range entries {
		if e.Kind == Join || e.Kind == Leave {
			continue
		}
		if i, ok := at[e.Ref]; ok && e.Ref != 0 && !e.Kind.IsAct() {
			out[i].complete(e)
			continue
		}
		at[e.Seq] = len(out)
		out = append(out, Act{Entry: e})
	}
	return out
}

func (a *Act) complete(e Entry) {
	a.Later = append(a.Later, e)
	switch e.Kind {
	case CameBack:
		a.Outcome = a.Outcome + " · " + e.Outcome
		if e.Status == Returned {
			// What came back is the outcome: the run's "done" would hide it.
			a.Outcome = e.Outcome
		}
		a.Status = e.Status
		a.Counts.CameBack = e.Counts.CameBack
	case Cleared:
		a.Outcome += " · " + e.Text
	}
}

// Sentence is an entry as the war room announces it and the report's
// timeline lists it: who did what, and what it came to.
func (e Entry) Sentence() string {
	who := e.Who()
	if who == "" {
		who = "someone"
	}
	switch e.Kind {
	case Join:
		return fmt.Sprintf("%s joined the room%s", who, prefixed(" as ", e.Note))
	case Leave:
		return fmt.Sprintf("%s left the room", who)
	case CameBack:
		return fmt.Sprintf("%s's %s: %s", who, strings.TrimPrefix(e.Text, "the check after "), e.Outcome)
	case Cleared:
		return e.Text
	case Ack:
		return fmt.Sprintf("%s acknowledged %s%s", who, e.Text, prefixed(": ", quoted(e.Note)))
	case Snooze:
		return fmt.Sprintf("%s snoozed %s%s", who, e.Text, prefixed(": ", quoted(e.Note)))
	}
	s := fmt.Sprintf("%s: %s", who, lowerFirst(e.Text))
	if e.Outcome != "" {
		s += " — " + e.Outcome
	}
	return s
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

func quoted(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("%q", s)
}

// lowerFirst lowers a sentence's first letter when the rest of its first
// word is lower case ("Requeue 22 ..." but not "ALTER QLOCAL(...)").
func lowerFirst(s string) string {
	w, _, _ := strings.Cut(s, " ")
	if len(w) < 2 || strings.ToLower(w[1:]) != w[1:] {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// Who is the entry's user as a sentence names them: a war room's audit
// user without its key ("alice", not "alice (ssh key SHA256:...)").
func (e Entry) Who() string {
	u, _, _ := strings.Cut(e.User, " (ssh key ")
	return u
}

// Inhibited finds who set attr (GET or PUT) DISABLED on queue of qmgr and
// is still so as far as the journal knows: the newest applied inhibit of
// that attribute, unless it enabled it again.
func (j *Journal) Inhibited(qmgr, queue, attr string) (Entry, bool) {
	es := j.Entries()
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		if e.Kind != Inhibit || e.QMgr != qmgr || e.Queue != queue || len(e.Steps) == 0 || !e.Steps[0].Applied {
			continue
		}
		switch mqsc := e.Steps[0].MQSC; {
		case strings.Contains(mqsc, attr+"(DISABLED)"):
			return e, true
		case strings.Contains(mqsc, attr+"(ENABLED)"):
			return Entry{}, false
		}
	}
	return Entry{}, false
}

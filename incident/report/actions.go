package report

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/internal/words"
)

// ActionRow is an act of the journal as the report lists it: a run with
// what came back, an edit, a fix or an inhibit with its changes, in the
// words the audit view and the room used.
type ActionRow struct {
	journal.Act
}

// legacyEntry reads a run of a recording written before the journal, with
// an outcome from its own counts.
func legacyEntry(a record.Action) journal.Entry {
	e := a.AsEntry()
	e.Outcome = countsOutcome(a)
	return e
}

// countsOutcome says how a run ended from its own counts: "all 21 done",
// "28 of 30 done, 2 failed", and why it stopped.
func countsOutcome(a record.Action) string {
	var parts []string
	switch {
	case a.Requested > 0 && a.Done == a.Requested:
		parts = append(parts, "all "+words.Count(a.Done, "message")+" done")
	case a.Requested > 0:
		parts = append(parts, words.Commas(int64(a.Done))+" of "+words.Count(a.Requested, "message")+" done")
	default:
		parts = append(parts, words.Count(a.Done, "message")+" done")
	}
	for _, c := range []struct {
		n    int
		what string
	}{{a.Skipped, "skipped"}, {a.Failed, "failed"}, {a.InDoubt, "in doubt (the unit of work's outcome is unknown)"}, {a.NotDone, "not done"}} {
		if c.n > 0 {
			parts = append(parts, words.Commas(int64(c.n))+" "+c.what)
		}
	}
	s := strings.Join(parts, ", ")
	if a.Stopped != "" {
		s += "; stopped: " + a.Stopped
	}
	if a.Err != "" {
		s += "; error: " + a.Err
	}
	return s
}

// actionLines is one act as the report shows it, in either format.
type actionLines struct {
	When, Who, What, Outcome, Audit string
	// Changes are a fix's, an inhibit's or a definition's steps: the MQSC
	// and the attributes before → after.
	Changes []string
}

// actionView is the one place an act is put into words: when, who, what
// was asked, what it came to, and where the audit log has it. Every field
// is sanitised here, so both formats print them as they are (Markdown
// escapes its own characters).
func actionView(a ActionRow) actionLines {
	s := mqfmt.Sanitize
	v := actionLines{When: a.At.Format("15:04:05"), Who: s(a.Who()), What: s(a.Text), Outcome: s(a.Outcome), Audit: s(strings.Join(a.Files, " "))}
	for _, st := range a.Steps {
		c := st.MQSC
		if st.Before != "" {
			c += " (" + st.Before + " → " + st.After + ")"
		}
		if !st.Applied {
			c += ": " + st.Error
		}
		v.Changes = append(v.Changes, s(c))
	}
	return v
}

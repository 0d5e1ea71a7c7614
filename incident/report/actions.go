package report

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/internal/words"
)

// ActionRow is an operator's run and the sentence that says how it ended.
// Build fills Outcome from the run's counts; a caller that knows more
// (whether the messages came back to the DEADQ) replaces it.
type ActionRow struct {
	record.Action
	Outcome string
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

// actionLines is one run as the report shows it, in either format.
type actionLines struct {
	When, Who, What, Outcome, Audit, Archive string
}

// actionView is the one place a run is put into words: when, who, what
// was asked, how it ended (outcome, the sentence of whoever knows best),
// and where the audit log has it. Every field is sanitised here, so both
// formats print them as they are (Markdown escapes its own characters).
func actionView(a record.Action, outcome string) actionLines {
	what := a.Summary
	if what == "" {
		what = a.Op + " " + a.Queue + " on " + a.QMgr
		if a.Target != "" {
			what += " to " + a.Target
		}
	}
	s := mqfmt.Sanitize
	v := actionLines{When: a.At.Format("15:04:05"), Who: s(a.User), What: s(what), Outcome: s(outcome), Audit: s(a.AuditID)}
	if a.ArchiveFile != "" {
		v.Archive = s(a.ArchiveFile)
	}
	return v
}

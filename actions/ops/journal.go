package ops

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// record writes an act to the engine's journal and, as its durable form,
// one line to the audit log beside the act's per-message or per-step
// lines: a crash after the act leaves the log saying what it came to. The
// entry comes back numbered, so a later entry can complete it.
func (e *Engine) record(ent journal.Entry) journal.Entry {
	ent = e.opts.Journal.Append(ent)
	if audit, _, err := openAudit(e.opts.AuditPath); err == nil {
		_ = audit.write([]AuditRecord{actAudit(ent)})
		_ = audit.close()
	}
	return ent
}

// actAudit is an act's line in the audit log. Its Act field tells it from
// the per-message lines, which the import's and `audit check`'s readers
// count.
func actAudit(ent journal.Entry) AuditRecord {
	return AuditRecord{Time: ent.At, User: ent.User, QMgr: ent.QMgr, Action: Op(ent.Op), From: ent.Queue, To: ent.Target,
		Outcome: ent.Outcome, Act: string(ent.Kind), Text: ent.Text, Status: string(ent.Status)}
}

// RunEntry is a finished run as the journal tells it.
func RunEntry(res *OpResult, start time.Time, user, qmgr string) journal.Entry {
	req := &res.Plan.Request
	ent := journal.Entry{At: start, Kind: journal.Run, Op: string(req.Op), User: user, QMgr: cmp.Or(req.QMgr, qmgr), Queue: req.Queue,
		Target: req.Target, Text: runText(res), Started: start,
		Counts: journal.Counts{Requested: len(res.Plan.Items), Done: res.Done, Skipped: res.Skipped, Failed: res.Failed,
			InDoubt: res.InDoubt, NotDone: res.NotDone}}
	if res.Plan.Request.NoPlanItems || ent.Counts.Requested == 0 {
		ent.Counts.Requested = res.Done + res.Skipped + res.Failed + res.InDoubt + res.NotDone
	}
	ent.Outcome, ent.Status = RunOutcome(res)
	for _, f := range []string{res.AuditFile, res.ArchiveFile, req.File} {
		if f != "" {
			ent.Files = append(ent.Files, f)
		}
	}
	return ent
}

// runText says what a run set out to do: the plan's sentence up to its
// first ";" ("Requeue 22 messages from ORDERS.BO to ORDERS.IN").
func runText(res *OpResult) string {
	if s, _, _ := strings.Cut(res.Plan.Summary, ";"); s != "" {
		return s
	}
	req := &res.Plan.Request
	n := res.Done + res.Skipped + res.Failed + res.InDoubt + res.NotDone
	s := upperFirst(cmp.Or(string(req.Op), "act")) + " "
	if n > 0 {
		s += words.Count(n, "message") + " from "
	} else {
		s += "on "
	}
	s += req.Queue
	if req.Target != "" {
		s += " to " + req.Target
	}
	return s
}

// RunOutcome is what a run came to, before the check after it: "22
// requeued", "20 requeued · 2 skipped · stopped: ...".
func RunOutcome(res *OpResult) (string, journal.Status) {
	op := res.Plan.Request.Op
	parts := []string{fmt.Sprintf("%s %s", words.Commas(int64(res.Done)), op.PastTense())}
	for _, c := range []struct {
		n    int
		what string
	}{{res.Skipped, "skipped"}, {res.Failed, "failed"}, {res.InDoubt, "in doubt"}, {res.NotDone, "not done"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if res.Stopped != "" {
		parts = append(parts, "stopped: "+res.Stopped)
	}
	st := journal.OK
	switch {
	case res.Done == 0 && (res.Failed > 0 || res.Stopped != "" || res.InDoubt > 0):
		st = journal.Failed
	case res.Skipped+res.Failed+res.InDoubt+res.NotDone > 0 || res.Stopped != "":
		st = journal.Partial
	}
	return strings.Join(parts, " · "), st
}

// CameBackEntry is the check after a run (or an edit's put) as the
// journal tells it, completing the act ref.
func CameBackEntry(v *OpVerify, ref journal.Entry, at time.Time) journal.Entry {
	ent := journal.Entry{At: at, Ref: ref.Seq, Kind: journal.CameBack, Op: ref.Op, User: ref.User, QMgr: ref.QMgr,
		Queue: ref.Queue, Target: ref.Target, Files: ref.Files, Text: "the check after " + lowerFirst(ref.Text),
		Started: ref.Started, Counts: ref.Counts}
	ent.Counts.CameBack = v.CameBack
	ent.Where, ent.Within = v.Where, v.Within
	for _, c := range v.Causes {
		ent.Causes = append(ent.Causes, journal.Cause{Text: c.Cause, Reason: c.Reason, Queue: c.Queue, Count: c.Count})
	}
	ent.Outcome, ent.Status = CameBackOutcome(v, ref.Status)
	return ent
}

// CameBackOutcome says what the check after an act found, as every view
// tells it: "all 22 came back (R10f) to SYSTEM.DEAD.LETTER.QUEUE within 4 s
// (2053: ORDERS.BO full)", "none of the 22 came back within 30 s".
func CameBackOutcome(v *OpVerify, before journal.Status) (string, journal.Status) {
	switch {
	case v.Skipped != "":
		return "not checked: " + v.Skipped, before
	case v.CameBack == 0:
		return v.Sentence(), before
	}
	var causes []string
	for _, c := range v.Causes {
		causes = append(causes, c.Cause)
	}
	n := fmt.Sprintf("%d of the %d", v.CameBack, v.Watched)
	if v.CameBack == v.Watched {
		n = fmt.Sprintf("all %d", v.CameBack)
		if v.Watched == 1 {
			n = "it"
		}
	}
	return fmt.Sprintf("%s came back (R10f) to %s within %s (%s)", n, v.Where, seconds(v.Within), strings.Join(causes, "; ")), journal.Returned
}

// FixEntry is a fix, an inhibit or a definition as the journal tells it.
func FixEntry(res *FixResult, at time.Time) journal.Entry {
	p := &res.Plan
	ent := journal.Entry{At: at, Kind: fixKind(res), User: res.User, QMgr: p.QMgr, Alert: p.ID}
	ent.Op = string(ent.Kind)
	for i, st := range res.Steps {
		ent.Steps = append(ent.Steps, journal.Step{MQSC: st.MQSC, Before: st.Before, After: st.After, Applied: st.Applied,
			Skipped: st.Skipped, Error: st.Error})
		// The queue it changes last is the one its alert is about (a
		// prerequisite's queue comes first).
		if i < len(p.Steps) && p.Steps[i].Change.Queue != "" {
			ent.Queue = p.Steps[i].Change.Queue
		}
	}
	if ent.Kind == journal.Define {
		// A queue that did not exist has no values before: the MQSC says
		// what was defined ("LIKE((new queue))" said nothing).
		for i := range ent.Steps {
			ent.Steps[i].Before = ""
		}
	}
	ent.Text = fixText(ent, p.ID)
	applied, failed := 0, ""
	for _, s := range res.Steps {
		if s.Applied {
			applied++
		} else if failed == "" {
			failed = s.Error
		}
	}
	switch {
	case failed == "" && applied == len(p.Steps):
		ent.Outcome, ent.Status = "applied", journal.OK
		if len(p.Steps) > 1 {
			ent.Outcome = fmt.Sprintf("applied (%d steps)", len(p.Steps))
		}
	case applied == 0:
		ent.Outcome, ent.Status = "failed: "+failed, journal.Failed
	default:
		ent.Outcome, ent.Status = fmt.Sprintf("%d of %d steps applied; failed: %s", applied, len(p.Steps), failed), journal.Partial
	}
	if res.Stopped != "" {
		ent.Outcome += " (" + res.Stopped + ")"
	}
	return ent
}

// fixKind tells a definition and an inhibit from a fix by what they send.
func fixKind(res *FixResult) journal.Kind {
	if res.Op == OpInhibit {
		return journal.Inhibit
	}
	for _, st := range res.Plan.Steps {
		if c := st.Change.Command; c != pcf.CmdCreateQ && c != pcf.CmdCopyQ {
			return journal.Fix
		}
	}
	if len(res.Plan.Steps) == 0 {
		return journal.Fix
	}
	return journal.Define
}

// fixText says what a fix, an inhibit or a definition set out to do.
func fixText(ent journal.Entry, id string) string {
	var mqsc []string
	for _, s := range ent.Steps {
		mqsc = append(mqsc, s.MQSC)
	}
	switch ent.Kind {
	case journal.Inhibit:
		return strings.Join(mqsc, "; ")
	case journal.Define:
		return "define " + ent.Queue + ": " + strings.Join(mqsc, "; ")
	}
	what := "fix"
	if id != "" {
		what += " " + id
	}
	return what + ": " + strings.Join(mqsc, "; ")
}

// EditEntry is an edit and resend as the journal tells it.
func EditEntry(res *EditResult, at time.Time, user string) journal.Entry {
	req := &res.Plan.Request
	ent := journal.Entry{At: at, Kind: journal.Edit, Op: string(OpEdit), User: user, QMgr: cmp.Or(res.Plan.qmName, req.QMgr), Queue: req.Queue,
		Target: res.Plan.Target, Started: at, Text: fmt.Sprintf("edit and resend message %s from %s", shortID(req.Msg.MsgId), req.Queue),
		Outcome: res.Text, Status: journal.OK}
	if res.Plan.Target != "" {
		ent.Text += " to " + res.Plan.Target
	}
	ent.Counts.Requested = 1
	if res.Done {
		ent.Counts.Done = 1
	} else {
		ent.Status = journal.Failed
		if strings.HasPrefix(res.Text, "refused") {
			ent.Status = journal.Refused
		}
	}
	for _, f := range []string{res.AuditFile, res.ArchiveFile} {
		if f != "" {
			ent.Files = append(ent.Files, f)
		}
	}
	return ent
}

// shortID is the start of a MsgId in hexadecimal, enough to find it.
func shortID(id [24]byte) string { return hexID(id)[:16] }

// upperFirst and lowerFirst change a sentence's first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

package dlqrules

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Facts are the fields of a DEADQ message the pattern keywords match.
type Facts struct {
	HasDLH                         bool
	Reason                         int32
	DestQ, DestQM, Format          string // MQDLH; Format describes the data after it
	ApplIdentityData, PutApplName  string
	PutApplType, Feedback, MsgType int32
	Persistence                    int32
	ReplyQ, ReplyQM, UserID        string
	// Partial is set for facts from a summary, which lacks APPLIDAT,
	// APPLTYPE, FEEDBACK, MSGTYPE, REPLYQ and REPLYQM: patterns on those are
	// then undecided.
	Partial bool
}

// summaryLacks are the pattern keywords a summary cannot answer.
var summaryLacks = map[string]bool{"APPLIDAT": true, "APPLTYPE": true, "FEEDBACK": true, "MSGTYPE": true, "REPLYQ": true, "REPLYQM": true}

// FactsOfSummary returns what a summary (the dashboard's list, a triage
// group) knows of a message; Partial is set.
func FactsOfSummary(s *mqwatch.Summary) Facts {
	f := Facts{HasDLH: s.HasDLH, Reason: s.DLHReason, DestQ: s.DLHDestQ, DestQM: s.DLHDestQMgr,
		Format: s.DLHFormat, PutApplName: s.PutApplName, UserID: s.UserId, Partial: true}
	if s.Persistent {
		f.Persistence = mqfmt.PerPersistent
	}
	return f
}

// FactsOfMessage returns every field a rule can match, from the MQMD and the
// MQDLH of a browsed message (its first few hundred bytes are enough).
func FactsOfMessage(m *mqwatch.Message) Facts {
	s := mqwatch.Summarize(m)
	return factsOf(m, &s)
}

// factsOf completes a message's summary facts with its MQMD.
func factsOf(m *mqwatch.Message, s *mqwatch.Summary) Facts {
	f := FactsOfSummary(s)
	md := &m.MD
	f.Partial = false
	f.ApplIdentityData, f.PutApplName = mqfmt.Trim(md.ApplIdentityData), mqfmt.Trim(md.PutApplName)
	f.PutApplType, f.Feedback, f.MsgType, f.Persistence = md.PutApplType, md.Feedback, md.MsgType, md.Persistence
	f.ReplyQ, f.ReplyQM, f.UserID = mqfmt.Trim(md.ReplyToQ), mqfmt.Trim(md.ReplyToQMgr), mqfmt.Trim(md.UserIdentifier)
	return f
}

// value returns a fact by pattern keyword: a string, or a number.
func (f *Facts) value(kw string) (string, int32) {
	switch kw {
	case "APPLIDAT":
		return f.ApplIdentityData, 0
	case "APPLNAME":
		return f.PutApplName, 0
	case "APPLTYPE":
		return "", f.PutApplType
	case "DESTQ":
		return f.DestQ, 0
	case "DESTQM":
		return f.DestQM, 0
	case "FEEDBACK":
		return "", f.Feedback
	case "FORMAT":
		return f.Format, 0
	case "MSGTYPE":
		return "", f.MsgType
	case "PERSIST":
		return "", f.Persistence
	case "REASON":
		return "", f.Reason
	case "REPLYQ":
		return f.ReplyQ, 0
	case "REPLYQM":
		return f.ReplyQM, 0
	}
	return f.UserID, 0
}

// Matches reports whether the pattern matches f: trailing blanks are not
// significant, '*' stands for any run of characters and '?' for one.
func (p *Pattern) Matches(f *Facts) bool {
	if p.Any {
		return true
	}
	s, n := f.value(p.Keyword)
	if patternKeywords[p.Keyword].length == 0 {
		return n == p.Num
	}
	return mqwatch.MatchName(p.Value, strings.TrimRight(s, " "))
}

// MatchResult is what matching a message against a rule gives.
type MatchResult int

// A rule matches, does not, or (for a summary) may: its patterns on the
// fields the summary knows match and it also tests fields it does not.
const (
	NoMatch MatchResult = iota
	Matches
	MayMatch
)

// Test matches a rule against f.
func (r *Rule) Test(f *Facts) MatchResult {
	out := Matches
	for i := range r.Patterns {
		p := &r.Patterns[i]
		if f.Partial && !p.Any && summaryLacks[p.Keyword] {
			out = MayMatch
			continue
		}
		if !p.Matches(f) {
			return NoMatch
		}
	}
	return out
}

// Match is the rule a message meets.
type Match struct {
	// Rule is the index in Table.Rules of the first rule that matches, or -1
	// when none does (the message stays on the DEADQ).
	Rule int
	// Certain is false when the facts were partial and an earlier or this
	// rule tests fields they lack: the full message may meet another rule.
	Certain bool
	// Why says why no rule applies ("no MQDLH: ...") when Rule is -1.
	Why string
}

// Match finds the first rule that matches f, as runmqdlq searches the table
// from the top. A message without an MQDLH matches nothing: runmqdlq leaves
// such messages on the queue.
func (t *Table) Match(f *Facts) Match {
	return t.MatchFrom(f, 0)
}

// MatchFrom is Match starting at rule index from: where runmqdlq looks
// when the action of an earlier matching rule has failed every attempt.
func (t *Table) MatchFrom(f *Facts, from int) Match {
	if !f.HasDLH {
		return Match{Rule: -1, Certain: true, Why: "no MQDLH: runmqdlq processes only messages that start with one"}
	}
	for i := from; i < len(t.Rules); i++ {
		switch t.Rules[i].Test(f) {
		case Matches:
			return Match{Rule: i, Certain: true}
		case MayMatch:
			return Match{Rule: i, Certain: false}
		}
	}
	return Match{Rule: -1, Certain: true, Why: "no rule matches: the message stays on the DEADQ"}
}

// MatchSummary matches what a summary knows (the dashboard's lists).
func (t *Table) MatchSummary(s *mqwatch.Summary) Match {
	f := FactsOfSummary(s)
	return t.Match(&f)
}

// MatchMessage matches a browsed message on every field.
func (t *Table) MatchMessage(m *mqwatch.Message) Match {
	f := FactsOfMessage(m)
	return t.Match(&f)
}

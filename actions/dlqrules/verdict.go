package dlqrules

import (
	"context"
	"fmt"
	"strings"
)

// Verdict is what a table would do to one message: the rule it meets, that
// rule's action resolved for it and the outcome the engine predicts.
type Verdict struct {
	// Rule is the index in Table.Rules of the rule that applies, -1 when
	// none does (Why says why; the message stays).
	Rule int
	// Certain is false when the facts were a summary's and a rule tests
	// fields it lacks: the whole message may meet another rule.
	Certain bool
	Does    string // the action resolved: "forward to PARKING.Q (MQDLH kept)"
	Outcome string // "would succeed", "would fail with MQRC_UNKNOWN_OBJECT_NAME (2085): ..."
	Why     string `json:",omitempty"`
}

// String is the verdict in the preview's words: "forward to PARKING.Q
// (MQDLH kept): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085): ...".
func (v *Verdict) String() string {
	if v.Rule < 0 {
		return v.Why
	}
	return says(v.Does, v.Outcome)
}

// Fails reports whether the engine predicts the action would not get the
// message where the rule sends it: it would fail, loop back to the DEADQ,
// come back to a DEADQ from the queue manager that refused it before, or
// come back from its consumer (R10f).
func (v *Verdict) Fails() bool {
	for _, p := range []string{"would fail", "would loop", "would be dead-lettered again", "would come back"} {
		if strings.HasPrefix(v.Outcome, p) {
			return true
		}
	}
	return false
}

func says(does, outcome string) string { return does + ": " + outcome }

// Name is how the preview and the dashboard name a rule: "rule 4 (line 8)".
func (r *Rule) Name() string { return ruleName(r.Number, r.Pos.Line) }

func ruleName(number, line int) string { return fmt.Sprintf("rule %d (line %d)", number, line) }

// ExplainVerdict names the verdict's rule and says what it would do, as the
// preview lists it: "rule 4 (line 8): forward to PARKING.Q (MQDLH kept):
// would succeed".
func (t *Table) ExplainVerdict(v *Verdict) string {
	if v.Rule < 0 || v.Rule >= len(t.Rules) {
		return v.Why
	}
	r := &t.Rules[v.Rule]
	s := r.Name() + ": " + v.String()
	if !v.Certain {
		s += fmt.Sprintf(" (if the full message matches; rule %d tests fields the list does not hold)", r.Number)
	}
	return s
}

// Predict says what t would do to each message of queue, in order, exactly
// as Preview says it (the same classification, the engine's plan of each
// rule's requests, which open each target as the run will), changing nothing. The
// dashboard asks it for the messages it lists, which it has read already.
func Predict(ctx context.Context, src Source, t *Table, queue string, msgs []Subject) ([]Verdict, error) {
	qmi, err := src.Conn.QMgr(ctx)
	if err != nil {
		return nil, err
	}
	return verdicts(ctx, src, t, msgs, qmi.Name, queue, false)
}

// verdicts classifies the messages and predicts each one's outcome. browsed
// says msgs were just read from the queue (a preview), so the engine need
// not look for each again; a list the dashboard holds may be older.
func verdicts(ctx context.Context, src Source, t *Table, msgs []Subject, qmgr, queue string, browsed bool) ([]Verdict, error) {
	c := classify(t, msgs, qmgr, queue, nil)
	outcome, err := predict(ctx, src, c, msgs, qmgr, queue, browsed)
	if err != nil {
		return nil, err
	}
	out := make([]Verdict, len(msgs))
	for i := range msgs {
		v := &out[i]
		v.Rule, v.Certain = c.rule[i], c.sure[i]
		if v.Rule < 0 {
			v.Why = t.Match(&msgs[i].Facts).Why
			continue
		}
		v.Does, v.Outcome = c.res[i].String(), outcome[i]
	}
	return out, nil
}

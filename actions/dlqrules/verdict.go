package dlqrules

import (
	"context"
	"fmt"
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
	// Predicted is Outcome's kind, for callers that act on it.
	Predicted Prediction `json:"-"`
	Why       string     `json:",omitempty"`
	// Then is what happens once the rule's attempts fail (its put is
	// predicted to fail): the next matching rule, as runmqdlq tries it,
	// "rule 3 (line 5): forward to PARKING.Q (MQDLH kept): would succeed",
	// or that no rule is left and the message stays.
	Then string `json:",omitempty"`
}

// String is the verdict in the preview's words: "forward to PARKING.Q
// (MQDLH kept): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085): ...".
func (v *Verdict) String() string {
	if v.Rule < 0 {
		return v.Why
	}
	return says(v.Does, v.Outcome)
}

// Full is String with what happens next when the rule's put would fail:
// "...: would fail with ...; then rule 3 (line 5): ...".
func (v *Verdict) Full() string {
	if v.Rule >= 0 && v.Then != "" {
		return v.String() + "; then " + v.Then
	}
	return v.String()
}

// Fails reports whether the engine predicts the action would not get the
// message where the rule sends it: it would fail, loop back to the DEADQ,
// come back to a DEADQ from the queue manager that refused it before, or
// come back from its consumer (R10f).
func (v *Verdict) Fails() bool {
	switch v.Predicted {
	case WouldFailPut, WouldLoop, WouldDeadLetterAgain, WouldComeBack:
		return true
	}
	return false
}

// Prediction is the kind of what the engine predicts for a rule's action
// on one message; Verdict.Outcome is its sentence.
type Prediction uint8

// Predictions.
const (
	WouldSucceed         Prediction = iota
	WouldStay                       // ACTION(IGNORE): it stays on the DEADQ
	WouldBeLeft                     // the action cannot be taken for it (why follows)
	WouldLoop                       // its target is the DEADQ itself
	WouldFailPut                    // the put is predicted to fail
	WouldDeadLetterAgain            // the remote queue manager that refused it would again
	WouldComeBack                   // put back, its consumer refuses it again (R10f)
)

func says(does, outcome string) string { return does + ": " + outcome }

// Name is how the preview and the dashboard name a rule: "rule 4 (line 8)".
func (r *Rule) Name() string { return ruleName(r.Number, r.Pos.Line) }

func ruleName(number, line int) string { return fmt.Sprintf("rule %d (line %d)", number, line) }

// ExplainVerdictFull is ExplainVerdict with what the next matching rule
// would do when this one's put would fail (the message screen).
func (t *Table) ExplainVerdictFull(v *Verdict) string {
	s := t.ExplainVerdict(v)
	if v.Rule >= 0 && v.Rule < len(t.Rules) && v.Then != "" {
		s += "; then " + v.Then
	}
	return s
}

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
		v.Does, v.Outcome, v.Predicted = c.res[i].String(), outcome[i].text, outcome[i].kind
	}
	if err := thens(ctx, src, t, msgs, qmgr, queue, browsed, out); err != nil {
		return nil, err
	}
	return out, nil
}

// ifWhole marks a step that depends on fields a summary lacks.
const ifWhole = " (if the full message matches)"

// thens follows each message whose rule's put is predicted to fail to the
// next matching rule, as runmqdlq does once a rule's attempts are spent
// (IBM: "If all attempts fail, the DLQ handler searches for the next
// matching rule"), until a rule would get it somewhere or none is left.
func thens(ctx context.Context, src Source, t *Table, msgs []Subject, qmgr, queue string, browsed bool, vs []Verdict) error {
	spent := map[int]map[int]bool{}
	last := map[int]Prediction{} // message -> the outcome of its latest rule
	for i := range vs {
		last[i] = vs[i].Predicted
	}
	for round := 0; round < len(t.Rules); round++ {
		var idx []int
		for i := range vs {
			if vs[i].Rule >= 0 && last[i] == WouldFailPut {
				idx = append(idx, i)
			}
		}
		if len(idx) == 0 {
			return nil
		}
		sub := make([]Subject, len(idx))
		for j, i := range idx {
			sub[j] = msgs[i]
			if spent[i] == nil {
				spent[i] = map[int]bool{vs[i].Rule: true}
			}
		}
		c := classify(t, sub, qmgr, queue, func(j, r int) bool { return spent[idx[j]][r] })
		outcome, err := predict(ctx, src, c, sub, qmgr, queue, browsed)
		if err != nil {
			return err
		}
		for j, i := range idx {
			step := "no rule is left: it stays on the DEADQ"
			last[i] = WouldStay
			if r := c.rule[j]; r >= 0 {
				step = says(t.Rules[r].Name()+": "+c.res[j].String(), outcome[j].text)
				spent[i][r], last[i] = true, outcome[j].kind
				if !c.sure[j] {
					step += ifWhole
				}
			}
			if vs[i].Then != "" {
				vs[i].Then += "; then "
			}
			vs[i].Then += step
		}
	}
	return nil
}

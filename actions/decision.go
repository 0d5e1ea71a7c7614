package actions

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Fate is what a consumer's Decision does with a message. The vocabulary of
// the package: a consumer decides a Fate (R1–R9); an operator runs an Op (R10).
type Fate int

// Fates. A report message (R6c–R6e) is not a fate but accompanies one: see
// Decision.Report.
const (
	Deliver          Fate = iota + 1 // hand the message to the application
	MoveToBOQ                        // requeue to the input queue's BOQNAME (R2a)
	MoveToDeadQ                      // requeue to the queue manager's DEADQ (R2b, R6a)
	Discard                          // the message is gone (R2b, R4a, R4c, R4e, R6b, R9b)
	ReturnToInput                    // back on the input queue (R4b, R4d, R9b)
	StopConsumers                    // delivery to all connection consumers stops (R4f)
	PauseConsumer                    // the MDB pauses (R9c)
	LoopForever                      // redelivered after every rollback, never removed (R1c, R1f, R9a)
	MoveToQueue                      // an application moves it to a queue of its own (R9b)
	DependsOnOutcome                 // see Decision.Cases
)

var fateNames = [...]string{
	Deliver:          "deliver",
	MoveToBOQ:        "move to BOQ",
	MoveToDeadQ:      "move to DEADQ",
	Discard:          "discard",
	ReturnToInput:    "return to input queue",
	StopConsumers:    "stop all connection consumers",
	PauseConsumer:    "pause consumer",
	LoopForever:      "loop forever",
	MoveToQueue:      "move to queue",
	DependsOnOutcome: "depends on the transaction outcome",
}

// String names the fate as explanations and the UI show it.
func (a Fate) String() string {
	if a >= Deliver && a <= DependsOnOutcome {
		return fateNames[a]
	}
	return fmt.Sprintf("fate(%d)", int(a))
}

// Line is one step of an explanation, citing the rule it applies.
type Line struct {
	Rule string // "R1e", "R2a", ...
	Text string
}

// String renders "R1e BackoutCount 3 >= BOTHRESH 3: poison".
func (l Line) String() string { return l.Rule + " " + l.Text }

func line(rule, format string, args ...any) Line {
	return Line{Rule: rule, Text: fmt.Sprintf(format, args...)}
}

// Decision is one node of a route: what happens to the message, why, and what
// happens instead if the put it implies fails.
type Decision struct {
	Fate Fate
	// Queue is the target of a move, or the input queue for ReturnToInput and
	// LoopForever.
	Queue string
	// Reason is the MQDLH Reason of a DEADQ move and the Feedback of an
	// accompanying report message; 0 when none (or when it is the reason code
	// of a put failure not known in advance).
	Reason mqfmt.Reason
	// Report is the report message generated with this fate (R6c–R6e); nil = none.
	Report *ReportPlan
	Why    []Line
	// Fails is the reason code the facts say the put will fail with; 0 when
	// the put is expected to work or nothing is known.
	Fails mqfmt.Reason
	// FailsWhy explains Fails ("ORDERS.BO is at MAXDEPTH 5000").
	FailsWhy string
	// OnFailure is what happens if the put fails; nil when this fate is no put.
	OnFailure *Decision
	// Cases lists the decision per transaction outcome when Action is
	// DependsOnOutcome.
	Cases []Case
}

// Case is the decision for one transaction outcome.
type Case struct {
	Outcome  Outcome
	Decision *Decision
}

// ReportPlan is an exception report message an ASF consumer sends (R6c–R6g).
type ReportPlan struct {
	// Data is MQRO_EXCEPTION, MQRO_EXCEPTION_WITH_DATA or
	// MQRO_EXCEPTION_WITH_FULL_DATA: how much of the original it carries.
	Data     int32
	ToQ      string // the original's ReplyToQ
	ToQMgr   string // the original's ReplyToQMgr
	Feedback mqfmt.Reason
	Why      []Line
}

// Effective follows the failure path as far as the facts predict failures and
// returns the decision that will actually apply.
func (d *Decision) Effective() *Decision {
	for d.Fails != 0 && d.OnFailure != nil {
		d = d.OnFailure
	}
	return d
}

// Explain renders the route as indented lines: the decision, each fallback
// under "if the put fails", each outcome under "if the transaction ...".
func (r *Routing) Explain() []string {
	var out []string
	for _, w := range r.Warnings {
		out = append(out, "warning: "+w.String())
	}
	out = explainDecision(out, &r.Decision, 0)
	if r.AfterRollback != nil {
		out = append(out, "after one more rollback:")
		out = explainDecision(out, r.AfterRollback, 1)
	}
	return out
}

func explainDecision(out []string, d *Decision, depth int) []string {
	ind := strings.Repeat("  ", depth)
	for _, l := range d.Why {
		out = append(out, ind+l.String())
	}
	if d.Report != nil {
		for _, l := range d.Report.Why {
			out = append(out, ind+l.String())
		}
	}
	for _, c := range d.Cases {
		out = append(out, fmt.Sprintf("%sif the transaction ends in %s:", ind, c.Outcome))
		out = explainDecision(out, c.Decision, depth+1)
	}
	if d.OnFailure != nil {
		if d.Fails != 0 {
			out = append(out, fmt.Sprintf("%sthe put fails: %s (%s)", ind, d.Fails.Describe(), d.FailsWhy))
		} else {
			out = append(out, ind+"if the put fails:")
		}
		out = explainDecision(out, d.OnFailure, depth+1)
	}
	return out
}

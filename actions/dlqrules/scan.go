package dlqrules

import (
	"context"
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// scanBytes is how much of each message a scan reads: the MQDLH and the
// headers after it, which is all a rule looks at.
const scanBytes = 2048

// Subject is one message a table is applied to: its summary, which the
// engine acts on, and the fields the rules match (every field when browsed,
// a summary's share when the dashboard lists it).
type Subject struct {
	Sum   mqwatch.Summary
	Facts Facts
}

// SubjectOfSummary is a message as the dashboard's lists know it.
func SubjectOfSummary(s *mqwatch.Summary) Subject {
	return Subject{Sum: *s, Facts: FactsOfSummary(s)}
}

// SubjectOfMessage is a message read whole (the message screen).
func SubjectOfMessage(m *mqwatch.Message, s *mqwatch.Summary) Subject {
	return Subject{Sum: *s, Facts: factsOf(m, s)}
}

// scan browses the whole queue once, in queue order.
func scan(ctx context.Context, conn mqwatch.Conn, queue string) ([]Subject, error) {
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return nil, fmt.Errorf("browse %s: %w", queue, err)
	}
	defer q.Close(context.WithoutCancel(ctx))
	var out []Subject
	if st, err := conn.QueueStatus(ctx, queue); err == nil && len(st) == 1 {
		out = make([]Subject, 0, st[0].Depth+st[0].Depth/16) // room for a few arrivals
	}
	for first := true; ; first = false {
		m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: first, MaxBytes: scanBytes})
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return out, nil
		}
		if err != nil {
			return out, fmt.Errorf("browse %s: %w", queue, err)
		}
		s := mqwatch.Summarize(&m)
		out = append(out, Subject{Sum: s, Facts: factsOf(&m, &s)})
	}
}

// where finds the queue manager and the queue a table works on: the
// command's queue, else the table's INPUTQ, else the queue manager's DEADQ.
func where(ctx context.Context, conn mqwatch.Conn, t *Table, queue string) (mqwatch.QMgrInfo, string, error) {
	qmi, err := conn.QMgr(ctx)
	if err != nil {
		return qmi, "", err
	}
	if t.Control.InputQM != "" && t.Control.InputQM != qmi.Name {
		return qmi, "", fmt.Errorf("the table's INPUTQM(%s) is not the queue manager connected to (%s)", t.Control.InputQM, qmi.Name)
	}
	switch {
	case queue != "":
	case t.Control.InputQ != "":
		queue = t.Control.InputQ
	case qmi.DeadQ != "":
		queue = qmi.DeadQ
	default:
		return qmi, "", fmt.Errorf("queue manager %s has no DEADQ and the table gives no INPUTQ: give --queue", qmi.Name)
	}
	return qmi, queue, nil
}

package demo

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteText prints the result for a terminal: per queue manager its queues
// with depth and attributes, dead letters grouped by reason, example
// messages of BOQs and DEADQs; then the routes, the applications and the
// conservation check. Every string from a message is already sanitised.
func (res *Result) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("poisonwatch sim: scenario %s, seed %d, %s simulated, ending %s\n",
		res.Scenario, res.Seed, res.Simulated, res.End.Format(time.RFC3339))
	for i := range res.QMgrs {
		writeQMgr(ew, &res.QMgrs[i])
	}
	writeRoutes(ew, res.Routes)
	writeApps(ew, res)
	writeAccounting(ew, &res.Accounting)
	return ew.err
}

// errWriter keeps the first write error so printing code stays linear.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func writeQMgr(ew *errWriter, q *QMgrResult) {
	deadQ := q.DeadQ
	if deadQ == "" {
		deadQ = "(none)"
	}
	ew.printf("\n%s  DEADQ %s\n", q.Name, deadQ)
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  QUEUE\tROLE\tDEPTH\tMAXDEPTH\tBOTHRESH\tBOQNAME\tIPPROCS\tOPPROCS\tMAX BO\tOLDEST")
	for _, qr := range q.Queues {
		if qr.Role == RoleObject {
			continue
		}
		flags := ""
		if qr.PutInhibited {
			flags += " PUT(DISABLED)"
		}
		if qr.GetInhibited {
			flags += " GET(DISABLED)"
		}
		fmt.Fprintf(tw, "  %s%s\t%s\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%s\n", qr.Name, flags, qr.Role, qr.Depth,
			qr.MaxDepth, qr.BackoutThresh, dash(qr.BackoutQName), qr.OpenInput, qr.OpenOutput, qr.MaxBackoutCount,
			age(qr.OldestAge))
	}
	tw.Flush()
	for _, qr := range q.Queues {
		writeQueueDetail(ew, &qr)
	}
}

func writeQueueDetail(ew *errWriter, qr *QueueResult) {
	switch {
	case qr.Role == RoleObject && qr.Target != "":
		ew.printf("  %s %s → %s\n", qr.Type, qr.Name, qr.Target)
		return
	case qr.Role == RoleObject:
		return
	}
	if len(qr.Handles) > 0 {
		ew.printf("  %s open by %s\n", qr.Name, strings.Join(qr.Handles, ", "))
	}
	if len(qr.Reasons) > 0 {
		ew.printf("  dead letters on %s:\n", qr.Name)
		for _, r := range qr.Reasons {
			ew.printf("    %6d  %d %s → %s@%s (put by %s)\n", r.Count, r.Reason, r.Name, r.DestQ, r.DestQMgr, r.PutAppl)
		}
	}
	if len(qr.Examples) > 0 {
		ew.printf("  examples on %s:\n", qr.Name)
		for _, e := range qr.Examples {
			ew.printf("    %s %s from %s, BackoutCount %d, Format %s CCSID %d Encoding %d\n",
				e.MsgType, e.ApplIdentityData, e.PutApplName, e.BackoutCount, dash(e.Format), e.CCSID, e.Encoding)
			for _, h := range e.Headers {
				ew.printf("      %s\n", h)
			}
			if e.Error != "" {
				ew.printf("      decode error: %s\n", e.Error)
			}
			ew.printf("      body: %s\n", e.Body)
		}
	}
}

func writeRoutes(ew *errWriter, routes []RouteCount) {
	ew.printf("\nRoutes: what each consumer's poison engine did on every get (a message rolled back N times counts N times)\n")
	last := ""
	for _, r := range routes {
		head := fmt.Sprintf("%s %s  %s (%s)", r.QMgr, r.Queue, r.Consumer, r.Style)
		if head != last {
			ew.printf("  %s\n", head)
			last = head
		}
		what := r.Action
		if r.Target != "" && r.Target != r.Queue {
			what += " → " + r.Target
		}
		if r.Reason != 0 {
			what += fmt.Sprintf(", reason %d %s", r.Reason, r.ReasonName)
		}
		ew.printf("    %8d  %-4s %s\n", r.Count, r.Rule, what)
	}
}

func writeApps(ew *errWriter, res *Result) {
	ew.printf("\nConsumers\n")
	for _, c := range res.Consumers {
		errs := ""
		if c.Errors > 0 {
			errs = fmt.Sprintf(", %d failed calls", c.Errors)
		}
		ew.printf("  %-18s %s %s ×%d, %s: %s%s\n", c.Name, c.QMgr, c.Queue, c.Instances, c.Style, c.State, errs)
	}
	ew.printf("\nProducers\n")
	for _, p := range res.Producers {
		failed := ""
		for _, rc := range slices.Sorted(maps.Keys(p.PutFailed)) {
			failed += fmt.Sprintf(", %d puts failed with %s", p.PutFailed[rc], rc)
		}
		ew.printf("  %-18s %s %s: %d produced, %d messages%s\n", p.Name, p.QMgr, p.Target, p.Produced, p.Copies, failed)
	}
	for _, e := range res.Events {
		status := "ok"
		if e.Error != "" {
			status = e.Error
		}
		ew.printf("  event at %s on %s: %s\n", e.At, e.QMgr, status)
	}
}

func writeAccounting(ew *errWriter, a *Accounting) {
	ew.printf("\nAccounting: %d messages produced (a publication counts once per subscription)\n", a.Produced)
	ew.printf("  consumed %d, on input queues %d, on BOQs %d, on DEADQs %d, on transmission queues %d, on other queues %d\n",
		a.Consumed, a.OnInputQueue, a.OnBOQ, a.OnDeadQ, a.OnXmitQ, a.OnOtherQueue)
	var disc []string
	for _, rule := range slices.Sorted(maps.Keys(a.Discarded)) {
		disc = append(disc, fmt.Sprintf("%d by %s", a.Discarded[rule], rule))
	}
	ew.printf("  discarded: %s; turned into a report: %d (%d report messages on queues)\n",
		dash(strings.Join(disc, ", ")), a.Reported, a.Reports)
	if a.Balanced {
		ew.printf("  every message accounted for exactly once (%d = %d), no MsgId twice\n", a.Accounted, a.Produced)
		return
	}
	ew.printf("  NOT BALANCED: accounted %d of %d; missing %d, duplicated %d, unknown %d, MsgIds twice %d\n",
		a.Accounted, a.Produced, a.Missing, a.Duplicated, a.Unknown, a.DuplicateMsgIds)
	for _, p := range a.Problems {
		ew.printf("    %s\n", p)
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func age(seconds float64) string {
	if seconds <= 0 {
		return "-"
	}
	return time.Duration(seconds * float64(time.Second)).Round(time.Second).String()
}

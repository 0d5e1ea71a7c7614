package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Exit codes of `poisonwatch fix` (README "Repairing").
const (
	exitFixCleared = 0 // the alert cleared (or, with --dry-run, the fix can be applied)
	exitFixFires   = 1 // the alert still fires: not applied, refused, or back within --verify
)

func fixCommand() *command {
	f := &fixFlags{}
	return &command{name: "fix", synopsis: "apply an alert's MQSC fix through PCF and check the alert clears (R10h); --list names them",
		flags: f.register,
		usage: usageText("Usage: poisonwatch fix --list [backend flags]",
			"       poisonwatch fix --alert RULE:QUEUE [--dry-run] [--verify D] [backend flags] [flags]",
			"",
			"--list names the alerts of --qmgr with whether each fix can be applied; with no backend",
			"flags it lists the built-in demo's (make run's) QM1, as the dashboard shows it. --alert",
			"applies one alert's MQSC fix through the change gate (R10h) and checks the alert clears;",
			"it changes the queue manager, so it needs one named (--scenario builtin for the demo,",
			"--scenario, --mqsc, --load, or --backend ibmmq), --dry-run included."),
		exits: []exitStatus{{exitFixCleared, "the alert cleared (a dry run: every step would be applied; --list: listed)"},
			{exitFixFires, "it still fires: not applied, refused, copy-only, back within --verify (a dry run: a step would be refused)"},
			{ExitUsage, "usage: the command line is wrong, no such alert, no MQSC fix, or no queue manager named"}},
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return runFix(ctx, f, fs, stdout, stderr)
		}}
}

type fixFlags struct {
	backend      backendFlags
	alert, audit string
	list, dryRun bool
	json, ro     bool
	verify       time.Duration
}

func (f *fixFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.alert, "alert", "", "the finding to fix as --list names it: RULE:QUEUE (R8b:ORDERS.BO), or RULE:QMGR for one about the queue manager")
	fs.BoolVar(&f.list, "list", false, "list every alert of --qmgr with its id and whether its fix can be applied")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the plan (MQSC, before → after, authority) and send nothing")
	fs.DurationVar(&f.verify, "verify", 30*time.Second, "after applying, watch the polls this long for the alert to clear; 0 skips the check")
	fs.BoolVar(&f.json, "json", false, "print the plan and the outcome as JSON")
	fs.BoolVar(&f.ro, "read-only", false, "refuse to apply (dry runs and --list still work)")
	fs.StringVar(&f.audit, "audit", "", "audit log file (default: audit.jsonl in the state directory)")
	f.backend.register(fs, "fix")
}

// check refuses a command line that is neither --list nor one --alert.
func (f *fixFlags) check(fs *flag.FlagSet, stderr io.Writer) bool {
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "poisonwatch fix: unexpected argument %q\n", mqfmt.Sanitize(fs.Arg(0)))
	case f.list == (f.alert != ""):
		fmt.Fprintln(stderr, "poisonwatch fix: give --alert RULE:QUEUE, or --list")
	case f.verify < 0:
		fmt.Fprintln(stderr, "poisonwatch fix: --verify must not be negative")
	default:
		if f.list {
			f.backend.orDemo()
		}
		err := f.backend.resolveQMgr()
		if err == nil && !f.backend.named() {
			err = errNoQMgr // --alert changes the queue manager
		}
		if err == nil {
			return true
		}
		fmt.Fprintf(stderr, "poisonwatch fix: %v\n", err)
	}
	return false
}

func runFix(ctx context.Context, f *fixFlags, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	if !f.check(fs, stderr) {
		return ExitUsage
	}
	conn, qm, err := openActionBackend(ctx, &f.backend)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch fix: %v\n", err)
		return exitFixFires
	}
	if qm != nil {
		// The embedded queue manager's command server (strmqcsv): the fix
		// goes through it as it would on IBM MQ.
		srv, err := qm.StartCommandServer()
		if err != nil {
			fmt.Fprintf(stderr, "poisonwatch fix: command server: %v\n", err)
			return exitFixFires
		}
		defer func() { _ = srv.Stop() }()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := newFixWatch(ctx, conn, f.backend.qmgr)
	qs, err := w.next(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch fix: %v\n", err)
		return exitFixFires
	}
	if f.list {
		printFixList(stdout, qs)
		return exitFixCleared
	}
	return applyFixCmd(ctx, f, conn, w, qs, stdout, stderr)
}

func applyFixCmd(ctx context.Context, f *fixFlags, conn mqwatch.Connector, w *fixWatch, qs *model.QMgrState, stdout, stderr io.Writer) int {
	al, ok := findAlert(qs, f.alert)
	if !ok {
		fmt.Fprintf(stderr, "poisonwatch fix: no alert %s on %s now (it may have cleared); poisonwatch fix --list names the current ones\n", mqfmt.Sanitize(f.alert), qs.Name)
		return ExitUsage
	}
	if al.Fix == "" || al.Advice() {
		why := al.Text
		if al.Advice() {
			why = "advice: " + al.Fix // prose to follow by hand, nothing to send
		}
		fmt.Fprintf(stderr, "poisonwatch fix: %s has no MQSC fix: %s\n", al.ID(), mqfmt.Sanitize(why))
		return ExitUsage
	}
	plan := qs.FixPlan(al)
	out := fixOutput{QMgr: qs.Name, Alert: al.ID(), Text: al.Text, Plan: plan, DryRun: f.dryRun}
	defer func() { out.print(stdout, f.json) }()
	if len(plan.CopyOnly) > 0 {
		out.Outcome = "copy-only: run the MQSC in runmqsc"
		return exitFixFires
	}
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: conn, QMgr: qs.Name, AuditPath: f.audit, ReadOnly: f.ro,
		Connect: mqwatch.ConnectOptions{ApplName: "poisonwatch fix"}})
	var res ops.FixResult
	if err == nil {
		// The change gate: a dry run connects, reads the objects again and
		// predicts each step's answer; a run sends them.
		res, err = eng.ApplyFix(ctx, plan, "", f.dryRun)
		out.Result = &res
	}
	switch {
	case err != nil:
		out.Outcome = "not applied: " + ops.DescribeReason(err)
		if errors.Is(err, ops.ErrReadOnly) {
			out.Outcome = "not applied: " + err.Error()
		}
		return exitFixFires
	case f.dryRun:
		var code int
		out.Outcome, code = dryRunOutcome(res)
		return code
	case f.verify == 0:
		out.Outcome = "applied; not verified (--verify 0)"
		return exitFixCleared
	}
	before := append([]model.Alert(nil), qs.Alerts...)
	cleared, after, still := w.until(ctx, al.ID(), f.verify)
	touched := map[string]bool{}
	for _, s := range plan.Steps {
		touched[s.Change.Queue] = true
	}
	for _, a := range w.newAlerts(before, touched) {
		out.Now = append(out.Now, a.ID()+" "+a.Severity.Label()+" "+a.Text)
	}
	if cleared {
		out.Outcome, out.Cleared = fmt.Sprintf("%s %s cleared after %s", al.Rule, orQMgr(al), after.Round(time.Second)), true
		return exitFixCleared
	}
	out.Outcome = fmt.Sprintf("still firing after %s: %s", f.verify, still)
	return exitFixFires
}

// dryRunOutcome is a dry run's last line and exit code: 0 when the change
// gate predicts every step applied, 1 when it predicts one refused (the
// first, with its reason).
func dryRunOutcome(res ops.FixResult) (string, int) {
	for i, s := range res.Steps {
		if s.Predicted != 0 {
			return fmt.Sprintf("dry run: step %d would be refused: %s; nothing sent", i+1, s.Prediction), exitFixFires
		}
	}
	for _, s := range res.Steps {
		if s.Uncertain {
			return "dry run: every step would be applied as far as could be checked (" + s.Prediction + "); nothing sent", exitFixCleared
		}
	}
	return "dry run: every step would be applied; nothing sent", exitFixCleared
}

func findAlert(qs *model.QMgrState, id string) (model.Alert, bool) {
	for _, a := range qs.Alerts {
		if strings.EqualFold(a.ID(), id) {
			return a, true
		}
	}
	return model.Alert{}, false
}

func orQMgr(a model.Alert) string {
	if a.Queue == "" {
		return a.QMgr
	}
	return a.Queue
}

func printFixList(w io.Writer, qs *model.QMgrState) {
	if len(qs.Alerts) == 0 {
		fmt.Fprintf(w, "no alerts on %s\n", qs.Name)
		return
	}
	for _, a := range qs.Alerts {
		how := "no MQSC fix"
		switch {
		case a.Advice():
			how = "advice"
		case a.Fix != "":
			how = "fixable"
			if p := qs.FixPlan(a); len(p.CopyOnly) > 0 {
				how = "copy-only MQSC"
			}
		}
		fmt.Fprintf(w, "%-32s %-4s %-14s %s\n", mqfmt.Sanitize(a.ID()), a.Severity.Label(), how, mqfmt.Sanitize(a.Text))
	}
}

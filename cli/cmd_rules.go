package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// rulesCommand is `poisonwatch rules`: runmqdlq rules tables.
func rulesCommand() *command {
	return &command{name: "rules", synopsis: "runmqdlq rules tables: check, preview, run or generate one against the DEADQ", route: runRules,
		subs:  []*command{{name: "check"}, rulesSubcommand("preview", nil), rulesSubcommand("run", nil), rulesSubcommand("generate", nil)},
		exits: rulesExits}
}

// rulesUsage is rules' --help, which its exit codes end.
var rulesUsage = `Usage:
  poisonwatch rules check FILE
  poisonwatch rules preview FILE [--queue Q] [--json] [backend flags]
  poisonwatch rules run FILE [--dry-run] [--once] [--json] [backend flags]
  poisonwatch rules generate [--queue Q] [--out FILE] [backend flags]

preview and generate only read: with no backend flags they use the built-in
demo, as the dashboard does. run changes queues, so it needs a queue manager
named (--scenario builtin for the demo, --scenario, --mqsc, --load, or
--backend ibmmq), --dry-run included. 'poisonwatch rules SUB --help' lists
a subcommand's flags.
` + exitsText(rulesExits)

// rulesExits are the rules commands': the action commands' (check: 0 or 2).
var rulesExits = []exitStatus{{ExitDone, "all done (check: the table is valid; a dry run: every message would get where its rule sends it)"},
	{ExitPartial, "partly: some would fail, be dead-lettered again, come back or be skipped"},
	{ExitUsage, "a bad table (FILE:LINE:COL errors) or command line, or no queue manager named"},
	{ExitFailed, "nothing done (a dry run: nothing would be)"}}

func runRules(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, rulesUsage)
		return ExitUsage
	}
	switch args[0] {
	case "check":
		return rulesCheck(args[1:], stdout, stderr)
	case "preview", "run", "generate":
		return rulesSubcommand(args[0], args[1:]).exec(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, rulesUsage)
		return ExitDone
	}
	fmt.Fprintf(stderr, "poisonwatch rules: unknown subcommand %q\n%s\n", mqfmt.Sanitize(args[0]), rulesUsage)
	return ExitUsage
}

// maxListedRuleErrors is how many of a refused table's errors are printed:
// enough to fix a real table, never megabytes for a file that is not one.
const maxListedRuleErrors = 100

// loadRules parses a table, printing every error as FILE:LINE:COL.
func loadRules(path string, stderr io.Writer) (*dlqrules.Table, bool) {
	t, err := dlqrules.ParseFile(path)
	var errs dlqrules.Errors
	switch {
	case errors.As(err, &errs):
		for _, e := range errs[:min(len(errs), maxListedRuleErrors)] {
			fmt.Fprintf(stderr, "%s:%d:%d: %s\n", path, e.Pos.Line, e.Pos.Col, mqfmt.Sanitize(e.Msg))
		}
		if n := len(errs) - maxListedRuleErrors; n > 0 {
			fmt.Fprintf(stderr, "%s: and %d more errors not listed\n", path, n)
		}
		fmt.Fprintf(stderr, "%s: %s: the table is refused whole, as runmqdlq refuses it\n", path, errs.Counted())
		return nil, false
	case err != nil:
		fmt.Fprintf(stderr, "poisonwatch rules: %v\n", err)
		return nil, false
	}
	for _, w := range t.Warnings {
		fmt.Fprintf(stderr, "%s: warning: %s\n", path, w)
	}
	return t, true
}

func rulesCheck(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
		fmt.Fprint(stdout, rulesUsage)
		return ExitDone
	}
	if len(args) != 1 {
		fmt.Fprintln(stderr, rulesUsage)
		return ExitUsage
	}
	t, ok := loadRules(args[0], stderr)
	if !ok {
		return ExitUsage
	}
	fmt.Fprintf(stdout, "%s: %d rules", args[0], len(t.Rules))
	if t.Control.Present {
		fmt.Fprintf(stdout, "; control data %s", t.Control.String())
	}
	fmt.Fprintln(stdout)
	for i := range t.Rules {
		fmt.Fprintf(stdout, "  %d (line %d): %s\n", i+1, t.Rules[i].Pos.Line, mqfmt.Sanitize(t.Rules[i].String()))
	}
	return ExitDone
}

// rulesSubcommand is preview, run or generate. The table's file may come
// before the flags (rules run FILE --once) or after them.
func rulesSubcommand(sub string, args []string) *command {
	f := &rulesFlags{}
	if sub != "generate" && len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		f.file = args[0]
	}
	return &command{name: "rules " + sub, synopsis: rulesSynopsis[sub], exits: rulesExits, flags: func(fs *flag.FlagSet) { f.register(fs, sub) },
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return rulesWithQMgr(ctx, sub, f, fs, stdout, stderr)
		}}
}

var rulesSynopsis = map[string]string{
	"preview":  "show what each rule of FILE would do to the DEADQ's messages; changes nothing (default: the built-in demo)",
	"run":      "run the rules of FILE on the DEADQ as runmqdlq does, with --dry-run first",
	"generate": "write a rules table from the DEADQ's groups, one rule per group (default: the built-in demo)",
}

// rulesFlags are the flags of the subcommands that reach a queue manager.
type rulesFlags struct {
	file                    string // the table (preview and run)
	backend                 backendFlags
	queue, out, audit, arch string
	json, dryRun, once, ro  bool
	batch, workers          int
	rate                    float64
}

func (f *rulesFlags) register(fs *flag.FlagSet, sub string) {
	fs.StringVar(&f.queue, "queue", "", "the dead-letter queue (default: the table's INPUTQ, else the queue manager's DEADQ)")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON")
	switch sub {
	case "run":
		fs.BoolVar(&f.dryRun, "dry-run", false, "report what one pass would do; change nothing")
		fs.BoolVar(&f.once, "once", false, "process the messages there now (with their retries) and stop, whatever WAIT says")
		fs.IntVar(&f.batch, "batch", ops.DefaultBatch, "messages per unit of work")
		fs.IntVar(&f.workers, "workers", 1, "connections moving batches in parallel; 1 keeps the queue order")
		fs.Float64Var(&f.rate, "rate", 0, "at most this many messages per second (0: no limit)")
		fs.StringVar(&f.audit, "audit", "", "audit log file (default: audit.jsonl in the state directory)")
		fs.StringVar(&f.arch, "archive-dir", "", "where DISCARD archives go (default: archive/ in the state directory)")
		fs.BoolVar(&f.ro, "read-only", false, "refuse every change (a dry run still works)")
	case "generate":
		fs.StringVar(&f.out, "out", "", "write the table to this file (default: standard output)")
	}
	f.backend.register(fs, "use")
}

// rulesWithQMgr runs preview, run or generate.
func rulesWithQMgr(ctx context.Context, sub string, f *rulesFlags, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	args, file := fs.Args(), f.file
	if file != "" && len(args) > 0 && args[0] == file {
		args = args[1:] // the file came first: the flags after it are parsed next
		if code, ok := parseFlags(fs, args); !ok {
			return code
		}
	}
	if err := checkRulesFlags(sub, f); err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules %s: %v\n", sub, err)
		return ExitUsage
	}
	if fs.NArg() > 0 && file == "" && sub != "generate" {
		file = fs.Arg(0)
	}
	if (sub != "generate" && file == "") || (sub == "generate" && fs.NArg() > 0) {
		fmt.Fprintln(stderr, rulesUsage)
		return ExitUsage
	}
	var t *dlqrules.Table
	if file != "" {
		var ok bool
		if t, ok = loadRules(file, stderr); !ok {
			return ExitUsage
		}
	}
	if sub != "run" {
		f.backend.orDemo() // a preview or a generated table only reads
	}
	if err := f.backend.resolveQMgr(); err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules %s: %v\n", sub, err)
		return ExitUsage
	}
	if !f.backend.named() {
		fmt.Fprintf(stderr, "poisonwatch rules %s: %v\n", sub, errNoQMgr)
		return ExitUsage
	}
	src, closeSrc, err := openRulesSource(ctx, f)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules %s: %v\n", sub, err)
		return ExitFailed
	}
	defer closeSrc()
	switch sub {
	case "preview":
		return rulesPreview(ctx, src, t, f, stdout, stderr)
	case "run":
		return rulesRun(ctx, src, t, f, stdout, stderr)
	}
	return rulesGenerate(ctx, src, f, stdout, stderr)
}

// openRulesSource opens the queue manager as the action commands do.
func openRulesSource(ctx context.Context, f *rulesFlags) (dlqrules.Source, func(), error) {
	conn, _, err := openActionBackend(ctx, &f.backend)
	if err != nil {
		return dlqrules.Source{}, nil, err
	}
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: conn, QMgr: f.backend.qmgr,
		AuditPath: f.audit, ArchiveDir: f.arch, ReadOnly: f.ro})
	if err != nil {
		return dlqrules.Source{}, nil, err
	}
	eng.SetConsumerStyles(f.backend.styles)
	c, err := conn.Connect(ctx, mqwatch.ConnectOptions{ApplName: "poisonwatch rules"})
	if err != nil {
		return dlqrules.Source{}, nil, err
	}
	return dlqrules.Source{Conn: c, Engine: eng}, func() { _ = c.Close() }, nil
}

func rulesPreview(ctx context.Context, src dlqrules.Source, t *dlqrules.Table, f *rulesFlags, stdout, stderr io.Writer) int {
	rep, err := dlqrules.Preview(ctx, src, t, f.queue)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules preview: %v\n", err)
		return ExitFailed
	}
	if f.json {
		return writeRulesJSON(stdout, stderr, rep)
	}
	// The table's warnings went to stderr as it was read: the report
	// repeats them only in JSON, for a program that reads stdout alone.
	rep.Warnings = slices.DeleteFunc(rep.Warnings, func(w string) bool { return slices.Contains(t.Warnings, w) })
	rep.WriteText(stdout)
	return ExitDone
}

func rulesRun(ctx context.Context, src dlqrules.Source, t *dlqrules.Table, f *rulesFlags, stdout, stderr io.Writer) int {
	o := dlqrules.RunOptions{Queue: f.queue, DryRun: f.dryRun, Once: f.once, Batch: f.batch, Workers: f.workers, Rate: f.rate}
	prog := newProgressPrinter(stderr, "rules", f.json)
	o.Progress = func(_ int, p ops.OpProgress) { prog.report(p) }
	o.Step = func(st dlqrules.Step) {
		prog.done()
		if !f.json {
			writeRulesStep(stdout, &st)
		}
	}
	o.Idle = func(d time.Duration) {
		if t.Control.Wait == dlqrules.WaitYes {
			fmt.Fprintln(stderr, "nothing to do: waiting in MQGET for new messages (WAIT(YES); Ctrl-C stops)")
		} else {
			fmt.Fprintf(stderr, "nothing to do: waiting in MQGET up to %v for new messages (WAIT)\n", d.Round(time.Second))
		}
	}
	res, err := dlqrules.Run(ctx, src, t, o)
	if f.json {
		writeRulesJSON(stdout, stderr, struct {
			*dlqrules.RunResult
			Error string `json:",omitempty"`
		}{res, errString(err)})
	} else if res != nil {
		fmt.Fprintln(stdout, res.String())
	}
	switch {
	case err != nil && res == nil:
		fmt.Fprintf(stderr, "poisonwatch rules run: %v\n", err)
		return ExitFailed
	case err == nil && res.DryRun:
		return dryRunExit(res.DryRunActed())
	case err != nil || (res.Failed > 0 && res.Done > 0):
		return ExitPartial
	case res.Failed > 0:
		return ExitFailed
	}
	return ExitDone
}

// dryRunExit is the exit code of a dry run: 0 when every message it would
// take would get where its rule sends it, 1 when some would, 3 when none.
func dryRunExit(act, not int) int {
	switch {
	case not == 0:
		return ExitDone
	case act > 0:
		return ExitPartial
	}
	return ExitFailed
}

// writeRulesStep prints one engine request of a run as the action commands
// print theirs: the plan's sentence, the counts (for a dry run what would be
// acted on, what would fail, per reason, and what is skipped), the archive.
func writeRulesStep(w io.Writer, st *dlqrules.Step) {
	r := &st.Result
	fmt.Fprintf(w, "pass %d, rule %d: %s\n", st.Pass, st.Rule, mqfmt.Sanitize(r.Plan.Summary))
	fmt.Fprintln(w, "  "+countsLine(r))
	for _, l := range reasonLines(r) {
		fmt.Fprintln(w, "  "+l)
	}
	if r.ArchiveFile != "" {
		fmt.Fprintln(w, "  archive: "+r.ArchiveFile)
	}
	if st.Err != nil {
		fmt.Fprintln(w, "  error: "+mqfmt.Sanitize(st.Err.Error()))
	}
}

// writeRulesJSON writes v with exact values (no HTML escapes: a table's
// FWDQ(&DESTQ) stays &DESTQ), C1 controls and bidi overrides escaped.
func writeRulesJSON(stdout, stderr io.Writer, v any) int {
	enc := json.NewEncoder(mqfmt.NewJSONSafeWriter(stdout))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules: %v\n", err)
		return ExitFailed
	}
	return ExitDone
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

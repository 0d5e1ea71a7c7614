package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Exit codes of the action commands (documented in docs/actions.md).
const (
	ExitDone    = 0 // every selected message was acted on (or would be, in a dry run)
	ExitPartial = 1 // some were, some were skipped, failed, in doubt or not reached
	ExitUsage   = 2 // the command line is wrong
	ExitFailed  = 3 // nothing was acted on: an error, a refusal, or every message failed
)

// actionCommands are the operator actions of docs/poison-rules.md R10.
func actionCommands() []*command {
	mk := func(op ops.Op, synopsis string) *command { return actionCommand(op, synopsis, &actionFlags{}) }
	return []*command{
		mk(ops.OpRequeue, "requeue messages from the DEADQ or a BOQ to their queues (R10b, R10c)"),
		mk(ops.OpDiscard, "remove messages, archived first to a dmpmqmsg file (R10d)"),
		mk(ops.OpReplay, "put copies of messages to a queue, originals untouched (R10e)"),
		mk(ops.OpMove, "move messages to any queue, in syncpoint batches (R10a)"),
		mk(ops.OpExport, "browse messages to a dmpmqmsg file"),
		mk(ops.OpImport, "put the messages of a dmpmqmsg file onto a queue"),
	}
}

// actionFlags is everything an action command line says. The backend part
// is separate so that another way to get a queue manager (a --scenario like
// sim's, or the IBM MQ client) plugs in without touching the rest.
type actionFlags struct {
	req                         ops.OpRequest
	msgIDs                      listFlag
	reason, age, context        string
	json, readOnly              bool
	auditPath, archiveDir       string
	backend                     backendFlags
	minBackout                  int
	destQ, appl, body, format   string
	batch, workers, limit       int
	rate                        float64
	to, toQMgr, file, queueName string
	putaut                      string
	park                        parkFlags // --create-like, --maxdepth
}

// defaultVerify is how long a requeue, move or replay watches for its
// messages coming back (R10f "requeue loop").
const defaultVerify = 30 * time.Second

// actionCommand is the command of op, parsing its command line into a.
func actionCommand(op ops.Op, synopsis string, a *actionFlags) *command {
	return &command{name: string(op), synopsis: synopsis,
		flags: func(fs *flag.FlagSet) { a.register(fs) },
		usage: func(fs *flag.FlagSet, w io.Writer) { actionUsage(op, fs, w) }, exits: exitsAction,
		only: func(name string) bool { return flagApplies(op, name) },
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return runAction(ctx, op, a, fs, stdout, stderr)
		}}
}

// register declares every action flag; the usage shows each command those
// that apply to it (flagApplies), and checkOwnFlags refuses the others.
func (a *actionFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.queueName, "queue", "", "source queue (for import: the target, like --to)")
	fs.BoolVar(&a.req.All, "all", false, "select every message on the queue (or in the file)")
	fs.Var(&a.msgIDs, "msgid", "select by MsgId, 48 hexadecimal digits (repeatable, or comma-separated)")
	fs.StringVar(&a.reason, "reason", "", "select by MQDLH reason: a number or a name such as MQRC_Q_FULL")
	fs.StringVar(&a.destQ, "dest", "", "select by destination queue (MQDLH or JMS), MQSC generic or glob: ORDERS.*")
	fs.StringVar(&a.age, "min-age", "", "select messages put at least this long ago: 90s, 15m, 2h, 3d")
	fs.IntVar(&a.minBackout, "min-backout", 0, "select messages with at least this BackoutCount")
	fs.StringVar(&a.appl, "appl", "", "select by putting (or dead-lettering) application, any case, part of the name")
	fs.StringVar(&a.body, "body", "", "select messages whose body contains this text")
	fs.StringVar(&a.format, "format", "", "select by MQMD or body format, e.g. MQSTR")
	fs.IntVar(&a.limit, "limit", 0, fmt.Sprintf("select at most this many messages (0: up to %d)", ops.MaxSelection))
	fs.StringVar(&a.to, "to", "", "target queue: move and replay; an override for requeue; import's queue")
	fs.StringVar(&a.toQMgr, "to-qmgr", "", "queue manager of the target queue, reached as IBM MQ routes it")
	fs.StringVar(&a.file, "file", "", "dmpmqmsg file: export writes it, import reads it, discard archives to it")
	fs.BoolVar(&a.req.KeepMsgId, "keep-msgid", false, "replay: keep the MsgId (default: a new one)")
	fs.BoolVar(&a.req.NoReports, "no-reports", false, "replay: clear the COA, COD, exception and expiration report options on the copies (recorded in the audit log)")
	fs.StringVar(&a.context, "context", "pass", "`pass|default`: pass keeps the original context (needs setall authority on the target); default stamps your identity and the current time")
	fs.StringVar(&a.putaut, "putaut", "", "`def|ctx`: whose authority puts; def: yours, dead letters refused with 2035 included; ctx: each message's UserIdentifier (runmqdlq PUTAUT(CTX), needs altusr); unset: yours, and dead letters refused with 2035 are skipped")
	fs.StringVar(&a.req.AllowSystemTarget, "allow-system-target", "", "`QUEUE`: allow this one SYSTEM.* queue as a target (R10g); every other SYSTEM.* target is refused, except the DEADQ and transmission queues")
	fs.DurationVar(&a.req.Verify, "verify", defaultVerify, "after the run, watch this long for the moved messages coming back to the source (R10f); 0 skips the check")
	fs.BoolVar(&a.req.DryRun, "dry-run", false, "report per message what would happen; change nothing")
	fs.IntVar(&a.batch, "batch", ops.DefaultBatch, "messages per unit of work")
	fs.IntVar(&a.workers, "workers", ops.DefaultWorkers, "connections moving batches in parallel; 1 keeps the source order")
	fs.Float64Var(&a.rate, "rate", 0, "at most this many messages per second (0: no limit)")
	fs.BoolVar(&a.json, "json", false, "print the result as JSON")
	fs.StringVar(&a.auditPath, "audit", "", "audit log file (default: audit.jsonl in the state directory)")
	fs.StringVar(&a.archiveDir, "archive-dir", "", "where discard archives go (default: archive/ in the state directory)")
	fs.BoolVar(&a.readOnly, "read-only", false, "refuse every action that changes a queue")
	a.park.register(fs)
	a.backend.register(fs, "act on")
}

// parseActionArgs turns the command line into a request.
func parseActionArgs(op ops.Op, args []string, stderr io.Writer) (*actionFlags, error) {
	a := &actionFlags{}
	fs := actionCommand(op, "", a).flagSet(stderr)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return a, a.request(op, fs, stderr)
}

// request checks the parsed flags of op and makes a.req the request they
// describe.
func (a *actionFlags) request(op ops.Op, fs *flag.FlagSet, stderr io.Writer) error {
	if err := checkOwnFlags(op, fs); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if a.toQMgr != "" && a.to == "" {
		return fmt.Errorf("--to-qmgr needs --to: it names the queue manager of the target queue")
	}
	if err := a.backend.resolveQMgr(); err != nil {
		return err
	}
	r := &a.req
	r.Op, r.QMgr, r.Queue, r.Target, r.TargetQMgr, r.File = op, a.backend.qmgr, a.queueName, a.to, a.toQMgr, a.file
	r.Batch, r.Workers, r.Rate, r.Limit = a.batch, a.workers, a.rate, a.limit
	switch a.context {
	case "pass":
		r.Context = ops.ContextPass
	case "default":
		r.Context = ops.ContextDefault
	default:
		return fmt.Errorf("--context %q: want pass or default", a.context)
	}
	switch a.putaut {
	case "":
	case "def":
		r.PutAuthority = ops.PutAuthOperator
	case "ctx":
		r.PutAuthority = ops.PutAuthContext
	default:
		return fmt.Errorf("--putaut %q: want def or ctx", mqfmt.Sanitize(a.putaut))
	}
	f := ops.Filter{DestQ: a.destQ, PutAppl: a.appl, BodyContains: a.body, Format: a.format, MinBackout: int32(a.minBackout)}
	var err error
	if f.MsgIds, err = parseMsgIDs(a.msgIDs); err != nil {
		return err
	}
	if f.Reason, err = parseReason(a.reason); err != nil {
		return err
	}
	if f.MinAge, err = parseAge(a.age); err != nil {
		return err
	}
	if f.Reason != 0 || f.DestQ != "" || f.MinAge > 0 || f.MinBackout > 0 || f.PutAppl != "" || f.BodyContains != "" ||
		f.Format != "" || len(f.MsgIds) > 0 {
		r.Filter = &f
	}
	return cmp.Or(checkActionArgs(a), a.checkPark(), checkActionFlags(a, stderr))
}

// checkActionArgs refuses command lines that cannot mean anything, before
// any queue manager is touched.
func checkActionArgs(a *actionFlags) error {
	r := &a.req
	if r.Op == ops.OpImport {
		if r.Target == "" {
			r.Target = r.Queue
		}
		r.All = r.Filter == nil
	}
	switch {
	case r.Op != ops.OpImport && r.Queue == "":
		return errors.New("give the source queue with --queue")
	case r.Op != ops.OpImport && !r.All && r.Filter == nil:
		return errors.New("select messages: --all, --msgid or a filter (--reason, --dest, --min-age, --min-backout, --appl, --body, --format)")
	case (r.Op == ops.OpMove || r.Op == ops.OpImport) && r.Target == "":
		return fmt.Errorf("%s needs the target queue: --to", r.Op)
	case r.Op == ops.OpImport && r.File == "":
		return fmt.Errorf("%s needs --file", r.Op)
	case r.Op == ops.OpExport && r.File == "":
		r.File = defaultExportFile(a.auditPath, r.QMgr, r.Queue, time.Now())
	case r.Verify < 0 || r.Verify > 24*time.Hour:
		return fmt.Errorf("--verify %s: want 0 (no check) up to 24h", r.Verify)
	}
	return nil
}

// runAction runs one action command and returns its exit code.
func runAction(ctx context.Context, op ops.Op, a *actionFlags, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	err := a.request(op, fs, stderr)
	if err == nil {
		err = checkActionTarget(a)
	}
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch %s: %v\n", op, safeErr(err))
		return ExitUsage
	}
	noApps := prepareVerify(a)
	conn, qm, err := openActionBackend(ctx, &a.backend)
	if a.backend.stop != nil {
		defer a.backend.stop()
	}
	var park *parked
	if err == nil {
		conn, park, err = definePark(ctx, a, conn, qm)
	}
	var eng *ops.Engine
	if err == nil {
		eng, err = ops.NewEngine(ops.EngineOptions{Connector: conn, QMgr: a.backend.qmgr, AuditPath: a.auditPath,
			ArchiveDir: a.archiveDir, ReadOnly: a.readOnly})
	}
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch %s: %v\n", op, safeErr(err))
		return ExitFailed
	}
	eng.SetConsumerStyles(a.backend.styles)
	prog := newProgressPrinter(stderr, string(op), a.json)
	res, err := eng.Run(ctx, a.req, prog.report)
	prog.done()
	return reportAction(ctx, a, res, err, park, qm, noApps, stdout)
}

// reportAction writes the result of a run and returns its exit code.
func reportAction(ctx context.Context, a *actionFlags, res ops.OpResult, err error, park *parked, qm *embedded.QMgr, noApps bool, stdout io.Writer) int {
	if noApps && res.Verify == nil && res.Done > 0 && !a.req.DryRun {
		res.Verify = &ops.OpVerify{Skipped: "no application runs on this in-memory queue manager (--mqsc, --load): nothing can bring them back; --scenario runs its consumers during the check"}
	}
	code := exitCode(&res, err)
	var depths []queueDepth
	if qm != nil {
		depths = queueDepths(ctx, qm, &res)
	}
	if a.json {
		writeJSONResult(stdout, &res, err, depths, code, park)
	} else {
		writeParked(stdout, park)
		writeTextResult(stdout, &res, err, depths)
	}
	return code
}

// prepareVerify decides how the check after a run is made (R10f): with a
// scenario, its applications keep running through it; an embedded queue
// manager made of MQSC and dmpmqmsg files has no application that could
// bring a message back, so the check is skipped (and says so).
func prepareVerify(a *actionFlags) (noApps bool) {
	r := &a.req
	watched := !r.DryRun && r.Verify > 0 && (r.Op == ops.OpRequeue || r.Op == ops.OpMove || r.Op == ops.OpReplay)
	if !watched || a.backend.kind != "embedded" {
		return false
	}
	if a.backend.scenario != "" {
		a.backend.live = true
		return false
	}
	r.Verify = 0
	return true
}

// exitCode classifies a result: done, partial or failed. A dry run is
// classified by what would happen; a message an earlier import already put
// counts as done.
func exitCode(res *ops.OpResult, err error) int {
	already := 0
	for i := range res.Items {
		if res.Items[i].Kind == ops.Skipped && res.Items[i].Skip == ops.SkipImported {
			already++
		}
	}
	done := res.Done + already
	if res.Plan.Request.DryRun {
		b := res.Breakdown()
		done = b.Act - b.Back() + already // what would come back is not done
	}
	if res.Verify != nil && res.Verify.CameBack > 0 && done > 0 {
		return ExitPartial // acted on, but back where they were (R10f)
	}
	switch {
	case err == nil && done == len(res.Items) && !res.Plan.More:
		return ExitDone // with More, messages beyond the limit were not reached
	case done > 0 || res.InDoubt > 0:
		return ExitPartial
	}
	return ExitFailed
}

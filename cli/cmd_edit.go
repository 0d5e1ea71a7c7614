package cli

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// editCommand is `poisonwatch edit`: one message's body replaced and the
// message put again, the original archived (R10i).
func editCommand() *command {
	a := &editFlags{}
	return &command{name: "edit", synopsis: "replace a message's body and put it again, the original archived and removed in one unit of work (R10i)",
		flags: a.register,
		usage: usageText("Usage: poisonwatch edit --queue Q --msgid HEX --body-file FILE|- [--to Q [--to-qmgr QM]] [--dry-run] [backend flags] [flags]",
			"",
			"Puts a copy of one message with a new body and removes the original, archived first, in",
			"one unit of work (R10i). It changes a queue, so it needs a queue manager named: --backend",
			"ibmmq, or an embedded one (--scenario builtin for the demo, --scenario, --mqsc, --load)."),
		exits: []exitStatus{{ExitDone, "edited (a dry run: the plan can be run)"}, {ExitPartial, "edited, but the copy came back (R10f)"},
			{ExitUsage, "usage: the command line is wrong, or names no queue manager (nothing was touched)"}, {ExitFailed, "not edited: an error or a refusal"}},
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return runEdit(ctx, a, fs, stdout, stderr)
		}}
}

type editFlags struct {
	queue, msgid, bodyFile, to, toQMgr, context, auditPath, archiveDir, file string
	allowSystem                                                              string
	raw, dryRun, keepDLH, keepMsgId, readOnly                                bool
	verify                                                                   time.Duration
	backend                                                                  backendFlags
}

func (a *editFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&a.queue, "queue", "", "the queue the message is on")
	fs.StringVar(&a.msgid, "msgid", "", "the message's MsgId, 48 hexadecimal digits (the first message with it)")
	fs.StringVar(&a.bodyFile, "body-file", "", "the new body: text in UTF-8 for a text body (written back in its CCSID), an xxd dump for a binary one; - reads stdin")
	fs.BoolVar(&a.raw, "raw", false, "take --body-file's bytes as the body, unconverted")
	fs.StringVar(&a.to, "to", "", "put the edited copy here (default: the source queue; for a dead letter its MQDLH DestQName)")
	fs.StringVar(&a.toQMgr, "to-qmgr", "", "queue manager of --to")
	fs.BoolVar(&a.keepDLH, "keep-dlh", false, "keep the MQDLH of a dead letter (default: removed, as requeue does)")
	fs.BoolVar(&a.keepMsgId, "keep-msgid", false, "put the copy with the original MsgId (default: a new one)")
	fs.StringVar(&a.context, "context", "pass", "`pass|default`: keep the original context (setall) or let the queue manager set it")
	fs.BoolVar(&a.dryRun, "dry-run", false, "show the plan (diff, headers kept, target) and change nothing")
	fs.StringVar(&a.file, "file", "", "archive the original to this dmpmqmsg file (default: a new file in --archive-dir)")
	fs.StringVar(&a.auditPath, "audit", "", "audit log file (default: audit.jsonl in the state directory)")
	fs.StringVar(&a.archiveDir, "archive-dir", "", "where archives go (default: archive/ in the state directory)")
	fs.BoolVar(&a.readOnly, "read-only", false, "refuse to change a queue (a dry run still works)")
	fs.StringVar(&a.allowSystem, "allow-system-target", "", "allow this one SYSTEM.* queue as where the copy lands (R10g)")
	fs.DurationVar(&a.verify, "verify", defaultVerify, "after the put, watch this long for the copy coming back to the source or the DEADQ (R10f); 0 skips the check")
	a.backend.register(fs, "edit on")
}

// check refuses a command line that names no message or no body.
func (a *editFlags) check(fs *flag.FlagSet) error {
	switch {
	case fs.NArg() > 0:
		return fmt.Errorf("unexpected argument %q", mqfmt.Sanitize(fs.Arg(0)))
	case a.queue == "" || a.msgid == "" || a.bodyFile == "":
		return errors.New("--queue, --msgid and --body-file are required")
	case a.context != "pass" && a.context != "default":
		return fmt.Errorf("--context %q: want pass or default", mqfmt.Sanitize(a.context))
	case a.verify < 0 || a.verify > 24*time.Hour:
		return fmt.Errorf("--verify %s: want 0 (no check) up to 24h", a.verify)
	}
	return a.backend.resolveQMgr()
}

func runEdit(ctx context.Context, a *editFlags, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	err := a.check(fs)
	if err == nil {
		err = checkActionTarget(&actionFlags{backend: a.backend})
	}
	var id [24]byte
	if err == nil {
		err = parseEditMsgID(a.msgid, &id)
	}
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch edit: %v\n", safeErr(err))
		return ExitUsage
	}
	if err := doEdit(ctx, a, id, stdout); errors.Is(err, errCameBack) {
		fmt.Fprintf(stderr, "poisonwatch edit: %v\n", err)
		return ExitPartial
	} else if err != nil {
		fmt.Fprintf(stderr, "poisonwatch edit: %v\n", safeErr(err))
		return ExitFailed
	}
	return ExitDone
}

func parseEditMsgID(s string, id *[24]byte) error {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil || len(b) != 24 {
		return fmt.Errorf("--msgid %q: want 48 hexadecimal digits", mqfmt.Sanitize(s))
	}
	copy(id[:], b)
	return nil
}

func doEdit(ctx context.Context, a *editFlags, id [24]byte, stdout io.Writer) error {
	// The new body is read before the queue manager is touched: a file that
	// cannot be read refuses the edit at once.
	edited, err := readInput(a.bodyFile, maxBodyFile)
	if err != nil {
		return fmt.Errorf("--body-file: %w", err)
	}
	noApps := false
	if a.backend.kind == "embedded" && !a.dryRun && a.verify > 0 {
		if a.backend.live = a.backend.scenario != ""; !a.backend.live {
			noApps, a.verify = true, 0
		}
	}
	conn, _, err := openActionBackend(ctx, &a.backend)
	if a.backend.stop != nil {
		defer a.backend.stop()
	}
	if err != nil {
		return err
	}
	eng, err := ops.NewEngine(ops.EngineOptions{Connector: conn, QMgr: a.backend.qmgr, AuditPath: a.auditPath,
		ArchiveDir: a.archiveDir, ReadOnly: a.readOnly})
	if err != nil {
		return err
	}
	m, err := findByMsgID(ctx, conn, a.queue, id)
	if err != nil {
		return err
	}
	s := mqwatch.Summarize(&m)
	body, err := editedBody(a, edited, &m, &s)
	if err != nil {
		return err
	}
	req := ops.EditRequest{QMgr: a.backend.qmgr, Queue: a.queue, Msg: s, Body: body, Target: a.to, TargetQMgr: a.toQMgr,
		KeepDLH: a.keepDLH, KeepMsgId: a.keepMsgId, DryRun: a.dryRun, File: a.file, AllowSystemTarget: a.allowSystem, Verify: a.verify}
	if a.context == "default" {
		req.Context = ops.ContextDefault
	}
	res, err := eng.Edit(ctx, req)
	writeEditPlan(stdout, &res.Plan)
	if err != nil {
		return err
	}
	if res.Done {
		fmt.Fprintf(stdout, "edited: the copy is on %s with MsgId %x; the original is archived in %s\n", res.Plan.Target, res.NewMsgId, res.ArchiveFile)
		if noApps {
			res.Verify = &ops.OpVerify{Skipped: "no application runs on this in-memory queue manager (--mqsc, --load): nothing can bring it back; --scenario runs its consumers during the check"}
		}
		if v := res.Verify.Sentence(); v != "" {
			fmt.Fprintln(stdout, "check: "+mqfmt.Sanitize(v))
		}
	}
	fmt.Fprintf(stdout, "audit: %s\n", res.AuditFile)
	if res.Verify != nil && res.Verify.CameBack > 0 {
		return errCameBack
	}
	return nil
}

// errCameBack is the edit's exit 1: done, but the copy came back (R10f).
var errCameBack = errors.New("the edited copy came back (R10f): fix its cause before the next try")

// editedBody is --body-file's bytes b read as the editor would have
// written them: text in UTF-8 for a text body, an xxd dump for a binary one.
func editedBody(a *editFlags, b []byte, m *mqwatch.Message, s *mqwatch.Summary) ([]byte, error) {
	if a.raw {
		return b, nil
	}
	doc := bodyedit.Open(m.Data[s.BodyOffset:], s.BodyCCSID, s.Encoding)
	body, err := doc.Parse(doc.TrimFinalNewline(string(b)))
	if err != nil {
		return nil, fmt.Errorf("--body-file %s (edited as %s, CCSID %d): %w", a.bodyFile, doc.Mode, s.BodyCCSID, err)
	}
	return body, nil
}

// findByMsgID browses queue for the first message with id, whole.
func findByMsgID(ctx context.Context, conn mqwatch.Connector, queue string, id [24]byte) (mqwatch.Message, error) {
	c, err := conn.Connect(ctx, mqwatch.ConnectOptions{})
	if err != nil {
		return mqwatch.Message{}, err
	}
	defer c.Close()
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return mqwatch.Message{}, fmt.Errorf("open %s: %w", queue, err)
	}
	defer q.Close(ctx)
	m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: true, MsgId: &id})
	if err != nil {
		return m, fmt.Errorf("MsgId %x on %s: %w", id, queue, err)
	}
	if m.Truncated() || m.Data == nil && m.Length > 0 {
		return m, fmt.Errorf("MsgId %x: the browse returned %d of %d bytes", id, len(m.Data), m.Length)
	}
	return m, nil
}

// writeEditPlan prints what the edit does; every message byte sanitised.
func writeEditPlan(w io.Writer, p *ops.EditPlan) {
	if p.Summary == "" {
		return
	}
	fmt.Fprintln(w, p.Summary)
	fmt.Fprintln(w, "stays:")
	for _, h := range p.Headers {
		fmt.Fprintln(w, "  "+h)
	}
	fmt.Fprintf(w, "body (%s):\n", p.Mode)
	for _, l := range p.Diff {
		fmt.Fprintln(w, "  "+mqfmt.Sanitize(l))
	}
	if p.Route != "" {
		fmt.Fprintln(w, "route: "+mqfmt.Sanitize(p.Route))
	}
	for _, warn := range p.Warnings {
		fmt.Fprintln(w, "warning: "+mqfmt.Sanitize(warn))
	}
}

package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/doctor"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// doctorAppl is the application name the doctor connects with: DISPLAY CONN
// finds its own connection by it, to learn the user it really runs as.
const doctorAppl = "poisonwatch doctor"

func doctorCommand() *command {
	o := &doctorOpts{}
	return &command{name: "doctor", synopsis: "check a queue manager connection, command server and authorities before the dashboard",
		flags: o.register,
		usage: usageText("Usage: poisonwatch doctor [backend flags] [--user NAME] [--json]",
			"",
			"Checks every queue manager the same flags would have the dashboard watch: the connection",
			"settings, MQCONNX, the command server, and each feature's authorities with the setmqaut",
			"lines that grant what is missing. With no flags it checks the built-in demo (make run's),",
			"as the dashboard shows it; --mqsc FILE checks queue manager QM1 defined by the file (with",
			"its SET AUTHREC records) and --user NAME as that user; --backend ibmmq a real one."),
		exits: []exitStatus{{doctor.ExitOK, "every check passed"}, {doctor.ExitDegraded, "connected, but some feature will not work (a ✘ says which, with its fix)"},
			{doctor.ExitNoConnection, "no connection, or the command line is wrong"}},
		run: func(ctx context.Context, _ *flag.FlagSet, stdout, stderr io.Writer) int {
			return runDoctor(ctx, *o, stdout, stderr)
		}}
}

type doctorOpts struct {
	backend backendFlags
	user    string
	json    bool
	// the PCF queues to use and check (default: the platform's)
	commandQueue, replyModel string
}

// runDoctor checks every queue manager the same flags would watch. Exit 0:
// all green; 1: some feature will not work; 2: no connection (or usage).
func runDoctor(ctx context.Context, o doctorOpts, stdout, stderr io.Writer) int {
	targets, stop, err := doctorTargets(ctx, &o)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch doctor: %v\n", err)
		return doctor.ExitNoConnection
	}
	defer stop()
	if cq, rm := o.backend.mq.pcfQueues(); cq != "" || rm != "" { // IBM MQ's flags declared them
		o.commandQueue, o.replyModel = cq, rm
	}
	var reports []doctor.Report
	code := doctor.ExitOK
	for _, t := range targets {
		t.CommandQueue, t.ReplyModel = o.commandQueue, o.replyModel
		r := doctor.Run(ctx, t)
		reports = append(reports, r)
		code = max(code, r.Exit)
	}
	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(reports)
		return code
	}
	for i := range reports {
		printReport(stdout, &reports[i])
	}
	return code
}

func (o *doctorOpts) register(fs *flag.FlagSet) {
	b := &o.backend
	b.mq = registerBackend(fs, &b.kind, &b.scenario, &b.qmgr, &b.qmgrs, &b.mqsc,
		"check only this queue manager (embedded: of the scenario; default: every one the dashboard would watch)")
	fs.StringVar(&o.user, "user", "", "embedded backend: the principal the connections run as, held to the --mqsc files' SET AUTHREC records (default: the process user, an administrator)")
	fs.BoolVar(&o.json, "json", false, "print the checks as JSON")
	if fs.Lookup("command-queue") == nil { // else IBM MQ's flags declared them
		fs.StringVar(&o.commandQueue, "command-queue", "", "the command server's queue to send PCF to and check (default SYSTEM.ADMIN.COMMAND.QUEUE; SYSTEM.COMMAND.INPUT on z/OS)")
		fs.StringVar(&o.replyModel, "reply-model", "", "the model queue PCF replies come back on, checked too (default SYSTEM.DEFAULT.MODEL.QUEUE; SYSTEM.COMMAND.REPLY.MODEL on z/OS)")
	}
}

// doctorTargets builds what to check from the flags.
func doctorTargets(ctx context.Context, o *doctorOpts) ([]doctor.Target, func(), error) {
	b := &o.backend
	switch b.kind {
	case "ibmmq":
		if o.user != "" {
			return nil, nil, fmt.Errorf("--user is for embedded connections; IBM MQ authenticates MQ_USER (see docs/ibmmq.md)")
		}
		if b.mqsc != "" || b.scenario != "" {
			return nil, nil, errors.New("--scenario and --mqsc prepare the embedded queue manager; they do not apply to --backend ibmmq")
		}
		ts, err := b.mq.doctorTargets(promptPassword, b.qmgrs)
		return ts, func() {}, err
	case "embedded":
	default:
		return nil, nil, fmt.Errorf("unknown backend %q (embedded or ibmmq)", b.kind)
	}
	if b.mqsc != "" && b.scenario == "" {
		name := cmp.Or(b.qmgr, b.mq.qmgrName(), "QM1")
		qm, notes, err := embeddedFromMQSCFiles(name, b.mqsc)
		if err != nil {
			return nil, nil, err
		}
		return embeddedDoctorTarget(qm, "defined by --mqsc "+strings.Join(b.mqsc.paths(), ", "), o.user, notes)
	}
	return scenarioDoctorTargets(ctx, o)
}

// embeddedFromMQSC runs an MQSC file on a new embedded queue manager QM1.
func embeddedFromMQSC(file string) (*embedded.QMgr, []string, error) {
	return embeddedFromMQSCFiles("QM1", pathList(file))
}

// embeddedFromMQSCFiles runs MQSC files on a new embedded queue manager.
func embeddedFromMQSCFiles(name string, files pathList) (*embedded.QMgr, []string, error) {
	qm := embedded.New(embedded.Options{Name: name})
	var notes []string
	for _, f := range files.paths() {
		rep, err := runMQSCFile(qm, f)
		if err != nil {
			return nil, nil, err
		}
		notes = append(notes, rep.Notes()...)
	}
	return qm, notes, nil
}

// embeddedDoctorTarget checks an embedded queue manager with its command
// server running, as the principal user; source says where it comes from
// ("defined by --mqsc FILE").
func embeddedDoctorTarget(qm *embedded.QMgr, source, user string, notes []string) ([]doctor.Target, func(), error) {
	srv, err := qm.StartCommandServer()
	if err != nil {
		return nil, nil, err
	}
	who := user + " (--user)"
	if user == "" {
		who = "the process user, an administrator (no --user)"
	}
	details := []string{"queue manager: " + qm.Name() + " (embedded, " + mqfmt.Sanitize(source) + ")",
		"principal: " + mqfmt.Sanitize(who)}
	for _, n := range notes {
		details = append(details, "--mqsc: "+mqfmt.Sanitize(n))
	}
	principal := user
	if principal == "" {
		principal = "mqm"
	}
	t := doctor.Target{Name: qm.Name(), Connector: qm, Connect: mqwatch.ConnectOptions{ApplName: doctorAppl, User: user},
		Principal: principal, Settings: doctor.Check{Name: "connection", OK: true,
			Why: "embedded queue manager in this process", Details: details}}
	return []doctor.Target{t}, func() { _ = srv.Stop() }, nil
}

// printReport writes the checks with ✔/✘, each with its one line of why,
// details and fixes indented under it.
func printReport(w io.Writer, r *doctor.Report) {
	name := r.QMgr
	if name == "" {
		name = "(default queue manager)"
	}
	fmt.Fprintf(w, "poisonwatch doctor: %s\n", mqfmt.Sanitize(name))
	for _, c := range r.Checks {
		mark := "✔"
		switch {
		case !c.OK:
			mark = "✘"
		case c.Unknown:
			mark = "?"
		}
		fmt.Fprintf(w, "%s %s: %s\n", mark, mqfmt.Sanitize(c.Name), mqfmt.Sanitize(c.Why))
		for _, d := range c.Details {
			fmt.Fprintf(w, "    %s\n", mqfmt.Sanitize(d))
		}
		for _, f := range c.Fix {
			fmt.Fprintf(w, "    fix: %s\n", mqfmt.Sanitize(f))
		}
	}
	switch r.Exit {
	case doctor.ExitOK:
		fmt.Fprintln(w, "all checks passed: the dashboard and its actions will work")
	case doctor.ExitDegraded:
		fmt.Fprintf(w, "%d check(s) failed: %s will not work fully\n", len(r.Problems()), failedFeatures(r))
	default:
		fmt.Fprintln(w, "no connection: fix the first ✘ above")
	}
}

func failedFeatures(r *doctor.Report) string {
	var fs []string
	for _, c := range r.Checks {
		if !c.OK && c.Feature != "" && !strings.Contains(strings.Join(fs, ","), c.Feature) {
			fs = append(fs, c.Feature)
		}
	}
	if len(fs) == 0 {
		return "something"
	}
	return strings.Join(fs, ", ")
}

package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/poisonwatch/poisonwatch/internal/doctor"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// doctorAppl is the application name the doctor connects with: DISPLAY CONN
// finds its own connection by it, to learn the user it really runs as.
const doctorAppl = "poisonwatch doctor"

func doctorCommand() *command {
	o := &doctorOpts{}
	return &command{name: "doctor", synopsis: "check a queue manager connection, command server and authorities before the dashboard",
		flags: o.register,
		run: func(ctx context.Context, _ *flag.FlagSet, stdout, stderr io.Writer) int {
			return runDoctor(ctx, *o, stdout, stderr)
		}}
}

type doctorOpts struct {
	backend string
	mqsc    string
	user    string
	qmgrs   string
	json    bool
	mq      *mqFlags
	// the PCF queues to use and check (default: the platform's)
	commandQueue, replyModel string
}

// runDoctor checks every queue manager the same flags would watch. Exit 0:
// all green; 1: some feature will not work; 2: no connection (or usage).
func runDoctor(ctx context.Context, o doctorOpts, stdout, stderr io.Writer) int {
	targets, stop, err := doctorTargets(o)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch doctor: %v\n", err)
		return doctor.ExitNoConnection
	}
	defer stop()
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
	fs.StringVar(&o.backend, "backend", defaultBackend, "embedded or ibmmq (a binary built with make build-mq)")
	fs.StringVar(&o.mqsc, "mqsc", "", "embedded backend: the MQSC file that defines the queue manager (with its SET AUTHREC records)")
	fs.StringVar(&o.user, "user", "", "embedded backend: the principal the connection runs as (default: the process user, an administrator)")
	fs.StringVar(&o.qmgrs, "qmgrs", "", "TOML file listing the queue managers to check (IBM MQ)")
	fs.BoolVar(&o.json, "json", false, "print the checks as JSON")
	fs.StringVar(&o.commandQueue, "command-queue", "", "the command server's queue to send PCF to and check (default SYSTEM.ADMIN.COMMAND.QUEUE; SYSTEM.COMMAND.INPUT on z/OS)")
	fs.StringVar(&o.replyModel, "reply-model", "", "the model queue PCF replies come back on, checked too (default SYSTEM.DEFAULT.MODEL.QUEUE; SYSTEM.COMMAND.REPLY.MODEL on z/OS)")
	o.mq = newMQFlags()
	o.mq.register(fs)
}

// doctorTargets builds what to check from the flags.
func doctorTargets(o doctorOpts) ([]doctor.Target, func(), error) {
	switch o.backend {
	case "ibmmq":
		if o.user != "" {
			return nil, nil, fmt.Errorf("--user is for embedded connections; IBM MQ authenticates MQ_USER (see docs/ibmmq.md)")
		}
		ts, err := o.mq.doctorTargets(promptPassword, o.qmgrs)
		return ts, func() {}, err
	case "embedded":
	default:
		return nil, nil, fmt.Errorf("unknown backend %q (embedded or ibmmq)", o.backend)
	}
	if o.mqsc == "" {
		return nil, nil, fmt.Errorf("the embedded backend needs --mqsc FILE: the queue manager and authority records to check")
	}
	qm, notes, err := embeddedFromMQSC(o.mqsc)
	if err != nil {
		return nil, nil, err
	}
	return embeddedDoctorTarget(qm, o.mqsc, o.user, notes)
}

// embeddedFromMQSC runs an MQSC file on a new embedded queue manager.
func embeddedFromMQSC(file string) (*embedded.QMgr, []string, error) {
	qm := embedded.New(embedded.Options{Name: "QM1"})
	rep, err := runMQSCFile(qm, file)
	if err != nil {
		return nil, nil, err
	}
	return qm, rep.Notes(), nil
}

// embeddedDoctorTarget checks an embedded queue manager with its command
// server running, as the principal user.
func embeddedDoctorTarget(qm *embedded.QMgr, file, user string, notes []string) ([]doctor.Target, func(), error) {
	srv, err := qm.StartCommandServer()
	if err != nil {
		return nil, nil, err
	}
	who := user + " (--user)"
	if user == "" {
		who = "the process user, an administrator (no --user)"
	}
	details := []string{"queue manager: " + qm.Name() + " (embedded, defined by --mqsc " + mqfmt.Sanitize(file) + ")",
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

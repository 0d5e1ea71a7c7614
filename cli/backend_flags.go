package cli

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/backend/ibmmq"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// The backend flags' help, one text per flag: the dashboard, serve, the
// exporter, doctor and every verb that reaches a queue manager declare
// them through registerBackend, so they read and default the same
// everywhere (TestBackendFlagsAreTheDashboards).
const (
	helpBackend  = "`embedded|ibmmq`: embedded runs an IBM MQ model in this process (the built-in demo, --scenario or --mqsc); ibmmq connects to a real queue manager (a binary built with make build-mq)"
	helpScenario = "embedded backend: run this scenario (a directory or TOML file, 'builtin' for the demo, fleet[:NxM] for N queue managers of M queues) (default: the built-in demo, when no --mqsc is given)"
	helpMQSC     = "embedded backend: run this MQSC `FILE` (repeatable, in order): without --scenario the files define queue manager QM1 instead of the demo; with it they run after the scenario's own"
	helpQMgrs    = "TOML `FILE` listing the queue managers ([[qmgr]] name = ...; IBM MQ: with channel, conn, ccdt_url, ...; embedded: names among the scenario's)"
	helpQMgrOne  = "the queue manager (embedded: of the scenario; default QM1, or the one entry of --qmgrs)"
	helpQMgrAll  = "watch only this queue manager (embedded: of the scenario; default: every one)"
)

// pathList is a repeatable file flag: each occurrence is one path, whole
// (commas included). The paths are kept NUL-separated in one string, as
// no path holds a NUL, so that one file is written as a plain string.
type pathList string

func (p *pathList) String() string { return strings.ReplaceAll(string(*p), "\x00", ", ") }

func (p *pathList) Set(v string) error {
	if v == "" {
		return fmt.Errorf("empty file name")
	}
	if strings.IndexByte(v, 0) >= 0 {
		return fmt.Errorf("a file name holds no NUL")
	}
	if *p != "" {
		*p += "\x00"
	}
	*p += pathList(v)
	return nil
}

// paths are the files in the order given.
func (p pathList) paths() []string {
	if p == "" {
		return nil
	}
	return strings.Split(string(p), "\x00")
}

// backendFlags choose the queue manager: the embedded one (the built-in
// demo, a scenario, MQSC scripts, dmpmqmsg files) or IBM MQ (a build with
// the ibmmq tag) with the dashboard's connection flags and MQ_* environment.
type backendFlags struct {
	kind      string
	qmgr      string
	qmgrs     string
	mqsc      pathList
	load      listFlag
	loadQueue string
	scenario  string
	simFor    time.Duration
	// live keeps a scenario's applications running while the command acts
	// (the check after a requeue watches what they do); stop ends them.
	live   bool
	stop   func()
	styles map[string]actions.Style // a scenario's consumer styles, by queue
	mq     *mqFlags                 // IBM MQ's connection flags (a build with IBM MQ support)
}

// registerBackend declares the flags every command that reaches a queue
// manager shares, with the dashboard's defaults: --backend, --scenario,
// --mqsc, --qmgrs, --qmgr and, in a build with IBM MQ, its connection
// flags. qmgrHelp says what --qmgr means to the command.
func registerBackend(fs *flag.FlagSet, kind, scenario, qmgr, qmgrs *string, mqsc *pathList, qmgrHelp string) *mqFlags {
	fs.StringVar(kind, "backend", defaultBackend, helpBackend)
	fs.StringVar(scenario, "scenario", "", helpScenario)
	fs.Var(mqsc, "mqsc", helpMQSC)
	fs.StringVar(qmgrs, "qmgrs", "", helpQMgrs)
	m := newMQFlags()
	m.register(fs) // IBM MQ's --qmgr, connection and PCF queue flags
	if fs.Lookup("qmgr") == nil {
		fs.StringVar(qmgr, "qmgr", "", qmgrHelp)
	}
	return m
}

// register declares the flags that choose the one queue manager a command
// works on (the action, edit, fix and rules commands share them); verb says
// what the command does with --qmgr of a scenario.
func (b *backendFlags) register(fs *flag.FlagSet, verb string) {
	b.mq = registerBackend(fs, &b.kind, &b.scenario, &b.qmgr, &b.qmgrs, &b.mqsc, helpQMgrOne)
	fs.DurationVar(&b.simFor, "sim-duration", 0, "with --scenario: how much time to simulate before the command "+verb+" it (default: the scenario's duration)")
	fs.Var(&b.load, "load", "embedded backend: put this dmpmqmsg file's messages first (repeatable)")
	fs.StringVar(&b.loadQueue, "load-queue", "", "queue for --load (default: the file's '* Queue =' line)")
}

// named reports whether the command line names a queue manager: IBM MQ,
// or an embedded one made of a scenario, MQSC scripts or dmpmqmsg files.
func (b *backendFlags) named() bool {
	return b.kind != "embedded" || b.mqsc != "" || len(b.load) > 0 || b.scenario != ""
}

// orDemo makes the built-in demo the queue manager when the command line
// names none, as the dashboard does: for the commands that only look
// (doctor, fix --list, rules preview and generate). The commands that
// change queues or messages keep asking for one (checkActionTarget).
func (b *backendFlags) orDemo() {
	if !b.named() {
		b.scenario = "builtin"
	}
}

// resolveQMgr settles the queue manager once the flags are parsed: IBM MQ's
// comes with its connection flags (--qmgr, MQ_QMGR); an embedded one is
// --qmgr, else the one entry of --qmgrs, else QM1.
func (b *backendFlags) resolveQMgr() error {
	if b.kind == "ibmmq" || b.qmgr == "" {
		b.qmgr = b.mq.qmgrName() // a build with IBM MQ: its --qmgr
	}
	if b.qmgrs == "" {
		if b.qmgr == "" && b.kind != "ibmmq" {
			b.qmgr = "QM1"
		}
		return nil
	}
	name, err := listedQMgr(b.qmgrs, b.qmgr)
	if err == nil {
		b.qmgr = name
	}
	return err
}

// listedQMgr is the queue manager of a --qmgrs file a command acting on one
// works on: want when the file lists it, else the file's only entry.
func listedQMgr(file, want string) (string, error) {
	data, err := readQMgrsFile(file)
	if err != nil {
		return "", err
	}
	entries, err := ibmmq.ParseQMgrFile(data, ibmmq.Settings{})
	if err != nil {
		return "", fmt.Errorf("--qmgrs %s: %w", mqfmt.Sanitize(file), err)
	}
	var names []string
	for _, e := range entries {
		if want == "" && len(entries) == 1 || e.QMgr == want {
			return e.QMgr, nil
		}
		names = append(names, e.QMgr)
	}
	if want == "" {
		return "", fmt.Errorf("--qmgrs %s lists %s: give --qmgr to say which one", mqfmt.Sanitize(file), mqfmt.Sanitize(strings.Join(names, ", ")))
	}
	return "", fmt.Errorf("--qmgrs %s does not list %s (it lists %s)", mqfmt.Sanitize(file), mqfmt.Sanitize(want), mqfmt.Sanitize(strings.Join(names, ", ")))
}

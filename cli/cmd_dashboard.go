package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/themes"
	"github.com/poisonwatch/poisonwatch/ui"
)

// tuiOpts are the dashboard's flags.
type tuiOpts struct {
	interval time.Duration
	theme    string
	readOnly bool
	warRoom  bool
	include  string
	exclude  string
	mqsc     pathList
	scenario string
	qmgr     string // embedded: watch only this queue manager of the scenario
	backend  string
	audit    string
	qmgrs    string
	deadline time.Duration
	user     string // embedded: the principal the connections run as
	rec      recordOpts
	mq       *mqFlags   // IBM MQ's connection flags (a build with IBM MQ support)
	fleet    fleetFlags // --prometheus: the fleet read from the exporters' series
	// unattended is --unattended-after: 0 not given, negative off.
	unattended time.Duration
}

// dashboardCommand is poisonwatch without a command: the dashboard.
func dashboardCommand() *command {
	o := &tuiOpts{}
	return &command{flags: o.register, exits: exitsDashboard,
		synopsis: "the live dashboard: the built-in demo unless the backend flags name queue managers",
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return runTUI(ctx, *o, stderr)
		}}
}

func (o *tuiOpts) register(fs *flag.FlagSet) {
	o.registerWatch(fs, 2*time.Second)
	fs.StringVar(&o.theme, "theme", "", "colour theme: "+strings.Join(themes.Names(), ", ")+", or a theme file (default dark; high-contrast with --war-room)")
	fs.BoolVar(&o.readOnly, "read-only", false, "refuse every action (enforced by the engine)")
	fs.BoolVar(&o.warRoom, "war-room", false, "shared-screen mode: read-only, high-contrast, message bodies masked until revealed")
	fs.StringVar(&o.user, "user", "", "embedded backend: the principal every connection runs as, held to the --mqsc file's SET AUTHREC records (default: the process user, an administrator)")
	fs.StringVar(&o.audit, "audit", "", "audit log of actions (JSON lines; default under the user's state directory)")
	recordFlags(fs, &o.rec)
	o.fleet.register(fs)
}

// registerWatch declares what the dashboard, serve and the exporter share:
// which queue managers and queues are watched, and how often.
func (o *tuiOpts) registerWatch(fs *flag.FlagSet, interval time.Duration) {
	fs.DurationVar(&o.interval, "interval", interval, "poll interval (at least "+minInterval.String()+")")
	fs.StringVar(&o.include, "include", "", "comma-separated queue name patterns to watch (default all but SYSTEM.*; the DEADQ always)")
	fs.StringVar(&o.exclude, "exclude", "", "comma-separated queue name patterns to leave out")
	fs.DurationVar(&o.deadline, "deadline", 0, "how long one MQ call may go unanswered before its queue manager reads as not answering (default twice the interval, at least 10s)")
	o.mq = registerBackend(fs, &o.backend, &o.scenario, &o.qmgr, &o.qmgrs, &o.mqsc, helpQMgrAll)
	o.registerUnattended(fs)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// runTUI starts watchers for every queue manager and runs the dashboard.
func runTUI(ctx context.Context, o tuiOpts, stderr io.Writer) int {
	if err := cmp.Or(checkInterval(o.interval), checkDeadline(o.deadline), checkBackend(o.backend)); err != nil {
		fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		return 2
	}
	fleetCtx, stopFleet := context.WithCancel(ctx)
	defer stopFleet()
	feed, code, err := startPrometheusFleet(fleetCtx, o.fleet, o.interval)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		return code
	}
	be, err := fleetBackend(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		return 1
	}
	defer be.stop()
	if feed != nil {
		be.fleet = feed
	}
	ops, err := newEngineOps(be.qmgrs, o.readOnly || o.warRoom, osUser(), o.audit, be.acts())
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		return 1
	}
	be.ops, be.rules = ops, ops
	ops.useStyles(be.styles)
	stopAlerts, err := openIncident(ctx, o, be, "dashboard", stderr)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		return 1
	}
	defer stopAlerts()
	th, err := pickTheme(o)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	renderer := lipgloss.NewRenderer(os.Stdout)
	if os.Getenv("NO_COLOR") != "" {
		renderer.SetColorProfile(termenv.Ascii)
	}
	app, wait := newDashboard(ctx, o, be, th, renderer)
	p := tea.NewProgram(app, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx))
	_, err = p.Run()
	cancel()
	wait()
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		return 1
	}
	return 0
}

// spreadAbove is how many queue managers are polled together at start; the
// built-in demo's three paint at once.
const spreadAbove = 4

// minInterval is the shortest poll interval: each poll inquires every queue
// and browses heads and inventories, and polling faster loads the queue
// manager without showing anything sooner than the operator can read.
const minInterval = 250 * time.Millisecond

func checkInterval(d time.Duration) error {
	if d < minInterval {
		return fmt.Errorf("--interval %s: the poll interval must be at least %s", d, minInterval)
	}
	return nil
}

// minDeadline is the shortest call deadline: a busy queue manager answers a
// DISPLAY QSTATUS of thousands of queues in well under a second, and a
// shorter deadline would call it unresponsive when it is only loaded.
const minDeadline = time.Second

func checkDeadline(d time.Duration) error {
	if d != 0 && d < minDeadline {
		return fmt.Errorf("--deadline %s: at least %s (0: twice the interval, at least 10s)", d, minDeadline)
	}
	return nil
}

// newDashboard starts a watcher per queue manager and builds the dashboard
// on them; wait returns once every watcher has stopped (after ctx ends).
func newDashboard(ctx context.Context, o tuiOpts, be *backend, th themes.Theme, r *lipgloss.Renderer) (app *ui.App, wait func()) {
	sources, wait := startWatchers(ctx, o, be)
	app = ui.New(ui.Options{Sources: sources, Ops: be.ops, Rules: be.rules, Journal: be.acts(), Theme: th, Renderer: r, ReadOnly: o.readOnly,
		WarRoom: o.warRoom, Interval: o.interval, User: osUser(), Ctx: ctx, ConsumerStyles: be.styles, PauseAfter: be.pauseAfter, UnattendedAfter: be.unattended, ExportDir: exportDir(o.audit), Warming: be.warm,
		Diagnosis: startDoctor(ctx, be.doctorTargets()), Events: startEvents(ctx, o, be), Alerts: be.alerts, Fleet: be.fleet})
	return app, wait
}

// startWatchers starts a watcher per queue manager; wait returns once every
// one has stopped (after ctx ends). A fleet's first polls are spread over
// one interval: fifty first inventories read at once make the process's
// memory peak, and nobody reads fifty rows in the first second.
func startWatchers(ctx context.Context, o tuiOpts, be *backend) (sources []ui.Source, wait func()) {
	done := make(chan struct{}, len(be.qmgrs))
	for i, q := range be.qmgrs {
		var delay time.Duration
		if n := len(be.qmgrs); n > spreadAbove {
			delay = time.Duration(i) * o.interval / time.Duration(n)
		}
		w := mqwatch.NewWatcher(mqwatch.WatchConfig{Name: q.name, Connector: q.conn, Interval: o.interval, Deadline: o.deadline, Now: be.now,
			Delay: delay, Connect: mqwatch.ConnectOptions{ApplName: "poisonwatch"}, Include: splitList(o.include), Exclude: splitList(o.exclude)})
		go func() { w.Run(ctx); done <- struct{}{} }()
		sources = append(sources, be.recorded(ctx, namedWatcher{Watcher: w, name: q.name}))
	}
	return sources, func() {
		for range be.qmgrs {
			<-done
		}
	}
}

func pickTheme(o tuiOpts) (themes.Theme, error) {
	name := o.theme
	if name == "" {
		name = themes.Default
		if o.warRoom {
			name = "high-contrast"
		}
	}
	return themes.Load(name)
}

// exportDir is the directory of the audit log: exports land next to it.
func exportDir(audit string) string {
	if audit == "" {
		p, err := ops.DefaultAuditPath()
		if err != nil {
			return ""
		}
		audit = p
	}
	return filepath.Dir(audit)
}

// namedWatcher gives a watcher the name the ui shows.
type namedWatcher struct {
	*mqwatch.Watcher
	name string
}

func (n namedWatcher) Name() string { return n.name }

func osUser() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return os.Getenv("USER")
}

//go:build !windows

// serve runs on Unix-like systems only: the war room's sessions use a
// pseudo-terminal (warroom/session.go), which Windows builds lack.
package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/internal/confine"
	"github.com/poisonwatch/poisonwatch/themes"
	"github.com/poisonwatch/poisonwatch/ui"
	"github.com/poisonwatch/poisonwatch/warroom"
)

func serveCommand() *command {
	o := &serveOpts{}
	return &command{name: "serve", synopsis: "the dashboard over SSH: one set of watchers, many sessions, roles from the authorized keys",
		flags: o.register,
		usage: usageText("Usage: poisonwatch serve [backend flags] [--listen ADDR] [--authorized-keys FILE] [flags]",
			"",
			"Runs one set of watchers and serves the dashboard to everyone who connects with ssh,",
			"each session with its own screens, cursor and marks; the authorized keys say who is an",
			"operator and who a viewer. With no backend flags it serves the built-in demo, as the",
			"dashboard shows it (docs/warroom.md)."),
		exits: exitsServer,
		run: func(ctx context.Context, _ *flag.FlagSet, stdout, stderr io.Writer) int {
			return runServe(ctx, *o, stdout, stderr)
		}}
}

// serveOpts are serve's flags on top of the dashboard's.
type serveOpts struct {
	tuiOpts
	listen       string
	hostKey      string
	authorized   string
	maxSessions  int
	idle         time.Duration
	maxTime      time.Duration
	viewerBodies bool
	files        string
}

func (o *serveOpts) register(fs *flag.FlagSet) {
	o.tuiOpts.register(fs)
	fs.StringVar(&o.listen, "listen", "127.0.0.1:2222", "address the SSH server listens on")
	fs.StringVar(&o.hostKey, "host-key", "", "the server's private host key, created (ed25519, mode 0600) if missing (default serve_host_ed25519 in the state directory)")
	fs.StringVar(&o.authorized, "authorized-keys", "", "OpenSSH authorized_keys file of who may connect (not writable by others); role=operator or role=viewer in a key's comment (default viewer); options from= and expiry-time= are honoured, any other refuses to start")
	fs.IntVar(&o.maxSessions, "max-sessions", 32, "sessions at once; further connections are told the room is full")
	fs.DurationVar(&o.idle, "idle-timeout", 30*time.Minute, "disconnect a session whose user typed nothing for this long (0 never)")
	fs.DurationVar(&o.maxTime, "max-time", 24*time.Hour, "disconnect a session that has lasted this long, whatever it does (0 never)")
	fs.BoolVar(&o.viewerBodies, "viewer-bodies", false, "viewers see message bodies unmasked (default: masked until revealed, as --war-room)")
	fs.StringVar(&o.files, "files", "", "the only directory operators' sessions read and write files in (:rules, W, export, import, discard --file); symbolic links are never followed (default room in the state directory)")
}

// runServe starts one set of watchers and serves the dashboard to every
// SSH session on it until interrupted.
func runServe(ctx context.Context, o serveOpts, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int { fmt.Fprintf(stderr, "poisonwatch serve: %v\n", err); return code }
	if err := cmp.Or(checkInterval(o.interval), checkDeadline(o.deadline), checkBackend(o.backend)); err != nil {
		return fail(2, err)
	}
	if err := checkServeFlags(o); err != nil {
		return fail(2, err)
	}
	if o.authorized == "" {
		return fail(2, errors.New("--authorized-keys FILE is required: public keys are the only way in"))
	}
	keys, err := warroom.LoadKeys(o.authorized)
	if err != nil {
		return fail(2, err)
	}
	if o.hostKey == "" {
		o.hostKey = filepath.Join(exportDir(o.audit), "serve_host_ed25519")
	}
	pemKey, fp, err := warroom.HostKey(o.hostKey)
	if err != nil {
		return fail(1, err)
	}
	fleetCtx, stopFleet := context.WithCancel(ctx)
	defer stopFleet()
	// One refresh for every session: they share the poller.
	feed, code, err := startPrometheusFleet(fleetCtx, o.fleet, o.interval)
	if err != nil {
		return fail(code, err)
	}
	be, err := fleetBackend(ctx, o.tuiOpts)
	if err != nil {
		return fail(1, err)
	}
	defer be.stop()
	if feed != nil {
		be.fleet = feed
	}
	stopAlerts, err := openIncident(ctx, o.tuiOpts, be, "serve", stderr)
	if err != nil {
		return fail(1, err)
	}
	defer stopAlerts()
	return serve(ctx, o, be, keys, pemKey, fp, stdout, stderr)
}

func serve(ctx context.Context, o serveOpts, be *backend, keys warroom.Keys, pemKey []byte, fp string, stdout, stderr io.Writer) int {
	fail := func(code int, err error) int { fmt.Fprintf(stderr, "poisonwatch serve: %v\n", err); return code }
	operators, err := newEngineOps(be.qmgrs, o.readOnly, osUser(), o.audit, be.acts())
	if err != nil {
		return fail(1, err)
	}
	viewers, err := newEngineOps(be.qmgrs, true, osUser(), o.audit, be.acts())
	if err != nil {
		return fail(1, err)
	}
	if o.files == "" {
		o.files = filepath.Join(exportDir(o.audit), "room")
	}
	files, err := confine.Open(o.files)
	if err != nil {
		return fail(1, err)
	}
	defer files.Close()
	operators.useStyles(be.styles)
	watchCtx, stopWatch := context.WithCancel(context.Background())
	sources, wait := startWatchers(watchCtx, o.tuiOpts, be)
	defer func() { stopWatch(); wait() }()
	srv, err := warroom.New(warroom.Config{Listen: o.listen, HostKeyPEM: pemKey, Keys: keys, MaxSessions: o.maxSessions,
		IdleTimeout: o.idle, MaxTime: o.maxTime, Sources: sources, Log: stderr, Files: files, Journal: be.acts(),
		Interval: o.interval, Alerts: be.alerts, ConsumerStyles: be.styles, PauseAfter: be.pauseAfter, UnattendedAfter: be.unattended, Warming: be.warm,
		Engines: func(r warroom.Role) ui.Operations {
			if r == warroom.Operator {
				return operators
			}
			return viewers
		},
		App: func(s warroom.Session) (tea.Model, error) { return sessionApp(o, be, files.Path(), s) }})
	if err != nil {
		return fail(1, err)
	}
	l, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fail(1, err)
	}
	fmt.Fprintf(stdout, "poisonwatch serve: listening on %s\nhost key %s (%s)\n%d authorized keys from %s\noperators' files in %s\n",
		l.Addr(), fp, o.hostKey, len(keys), o.authorized, files.Path())
	fmt.Fprintln(stdout, recordingLine(be.rec))
	go recordPresence(watchCtx, srv.Room(), be.rec, be.clock)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(watchCtx, l) }()
	select {
	case err = <-served:
	case <-ctx.Done():
		stopCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = srv.Stop(stopCtx)
		cancel()
		<-served
	}
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fail(1, err)
	}
	fmt.Fprintln(stdout, "poisonwatch serve: stopped")
	return 0
}

// sessionApp builds one session's dashboard: its own App showing the
// room's model, with the role's operations and masking. The SSH command
// may pick a theme: ssh -t host -- --theme light.
func sessionApp(o serveOpts, be *backend, filesDir string, s warroom.Session) (tea.Model, error) {
	viewer := s.Who.Role != warroom.Operator
	fs := flag.NewFlagSet("session", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	theme := fs.String("theme", o.theme, "")
	if err := fs.Parse(s.Args); err != nil {
		return nil, fmt.Errorf("session flags: %v (only --theme NAME)", err)
	}
	if *theme != o.theme && !slices.Contains(themes.Names(), *theme) {
		// A client names a built-in theme, never a file on the server.
		return nil, fmt.Errorf("--theme %q: one of %s", *theme, strings.Join(themes.Names(), ", "))
	}
	to := o.tuiOpts
	to.theme, to.warRoom = *theme, o.warRoom || (viewer && !o.viewerBodies)
	th, err := pickTheme(to)
	if err != nil {
		return nil, err
	}
	return ui.New(ui.Options{Sources: s.Sources, Ops: s.Ops, Theme: th, Renderer: s.Renderer, Journal: be.acts(),
		ReadOnly: o.readOnly || viewer, ReadOnlyWhy: readOnlyWhy(o.readOnly, viewer), NoExport: viewer, WarRoom: to.warRoom, Interval: o.interval, User: warroom.AuditUser(s.Who),
		Ctx: s.Ctx, ConsumerStyles: be.styles, PauseAfter: be.pauseAfter, ExportDir: filesDir, Files: s.Files, Warming: be.warm, Room: s.Room, Alerts: be.alerts,
		Shared: s.Shared, Fleet: be.fleet}), nil
}

// recordingLine says where serve records, and where the recording a
// restart found went: a previous incident is never replaced silently.
func recordingLine(rec *record.Writer) string {
	switch {
	case rec == nil:
		return "not recording (--record off)"
	case rec.Rotated() != "":
		return fmt.Sprintf("recording to %s (the previous recording was moved to %s)", rec.Path(), rec.Rotated())
	}
	return "recording to " + rec.Path()
}

// readOnlyWhy is what a session's action keys say: a viewer learns that its
// key's role, not the server, keeps it from acting.
func readOnlyWhy(serverReadOnly, viewer bool) string {
	if viewer && !serverReadOnly {
		return "you joined as a viewer: actions need a key with role=operator in the authorized keys"
	}
	return ""
}

// checkServeFlags refuses serve's own flags out of range.
func checkServeFlags(o serveOpts) error {
	switch {
	case o.maxSessions < 1:
		return fmt.Errorf("--max-sessions %d: at least 1", o.maxSessions)
	case o.idle < 0:
		return fmt.Errorf("--idle-timeout %s: 0 (never) or more", o.idle)
	case o.maxTime < 0:
		return fmt.Errorf("--max-time %s: 0 (never) or more", o.maxTime)
	}
	return nil
}

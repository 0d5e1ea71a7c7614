package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/internal/record"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// withRecordingReplay lets the replay command open a recording too:
// `poisonwatch replay FILE` when FILE is a recording (--record, sim
// --record), the action otherwise (it takes no argument of its own).
func withRecordingReplay(cmds []*command) []*command {
	for i, c := range cmds {
		if c.name != "replay" {
			continue
		}
		action, rec := c, recordingCommand()
		cmds[i] = &command{name: c.name, synopsis: c.synopsis + "; replay RECORDING opens the dashboard on a recording",
			subs: []*command{action, rec}, exits: action.exits,
			route: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
				if n := len(args); n > 0 && !strings.HasPrefix(args[n-1], "-") && record.IsRecording(args[n-1]) {
					return rec.exec(ctx, args, stdout, stderr)
				}
				return action.exec(ctx, args, stdout, stderr)
			}}
	}
	return cmds
}

// recordingCommand is replay of a recording.
func recordingCommand() *command {
	var theme string
	return &command{name: "replay",
		flags: func(fs *flag.FlagSet) { fs.StringVar(&theme, "theme", "", "colour theme (as the dashboard's)") },
		usage: usageText("Usage: poisonwatch replay [--theme NAME] FILE",
			"\nOpens the dashboard on a recording: every screen works, nothing acts. [ ] step a poll,",
			"{ } a minute, t jumps to HH:MM[:SS], > plays at 1×, 10×, 60× and pauses."),
		exits: exitsDashboard,
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return runReplay(ctx, theme, fs, stderr)
		}}
}

func runReplay(ctx context.Context, theme string, fs *flag.FlagSet, stderr io.Writer) int {
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	app, err := replayApp(fs.Arg(0), tuiOpts{theme: theme}, lipgloss.NewRenderer(os.Stdout))
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch replay: %v\n", err)
		return 1
	}
	p := tea.NewProgram(app, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "poisonwatch replay: %v\n", err)
		return 1
	}
	return 0
}

// replayApp opens a recording and builds the dashboard on it.
func replayApp(path string, o tuiOpts, r *lipgloss.Renderer) (*ui.App, error) {
	app, _, err := replayAppOf(path, o, r)
	return app, err
}

// replayAppOf is replayApp with the recording, for closing.
func replayAppOf(path string, o tuiOpts, r *lipgloss.Renderer) (*ui.App, *record.Recording, error) {
	rec, err := record.Open(path)
	if err != nil {
		return nil, nil, err
	}
	if os.Getenv("NO_COLOR") != "" {
		r.SetColorProfile(termenv.Ascii)
	}
	th, err := pickTheme(o)
	if err != nil {
		return nil, nil, err
	}
	pl := record.NewPlayer(rec)
	var sources []ui.Source
	for _, name := range pl.QMgrs() {
		sources = append(sources, replayed(name))
	}
	interval := pl.Interval()
	if interval <= 0 {
		interval = 2 * time.Second
	}
	return ui.New(ui.Options{Sources: sources, Theme: th, Renderer: r, Interval: interval, Replay: pl, User: osUser()}), rec, nil
}

// replayed names a recorded queue manager: a source with nothing to send.
type replayed string

var closedSnapshots = func() chan *mqwatch.Snapshot { c := make(chan *mqwatch.Snapshot); close(c); return c }()

func (r replayed) Name() string                        { return string(r) }
func (r replayed) Snapshots() <-chan *mqwatch.Snapshot { return closedSnapshots }
func (r replayed) Refresh()                            {}
func (r replayed) SetFocus(string)                     {}
func (r replayed) Forget(string, ...mqwatch.Key)       {}

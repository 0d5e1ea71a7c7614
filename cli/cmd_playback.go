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

	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// withPlaybackHint keeps replay the R10e operation alone: given a
// recording, it says which command plays one back instead of reading it as
// a message selection.
func withPlaybackHint(cmds []*command) []*command {
	for i, c := range cmds {
		if c.name != "replay" {
			continue
		}
		action := c
		cmds[i] = &command{name: c.name, synopsis: c.synopsis, subs: []*command{action}, exits: action.exits,
			route: func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
				if n := len(args); n > 0 && !strings.HasPrefix(args[n-1], "-") && record.IsRecording(args[n-1]) {
					fmt.Fprintf(stderr, "poisonwatch replay puts copies of messages (R10e); to play back a recording: poisonwatch playback %s\n", args[n-1])
					return ExitUsage
				}
				return action.exec(ctx, args, stdout, stderr)
			}}
	}
	return cmds
}

// playbackCommand opens the dashboard on a recording.
func playbackCommand() *command {
	var theme string
	return &command{name: "playback", synopsis: "open the dashboard on a recording (serve, --record, sim --record): every screen works, nothing acts",
		flags: func(fs *flag.FlagSet) { fs.StringVar(&theme, "theme", "", "colour theme (as the dashboard's)") },
		usage: usageText("Usage: poisonwatch playback [--theme NAME] FILE",
			"\nOpens the dashboard on a recording: every screen works, nothing acts. [ ] step a poll,",
			"{ } a minute, t jumps to HH:MM[:SS], > plays at 1×, 10×, 60× and pauses."),
		exits: exitsDashboard,
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return runPlayback(ctx, theme, fs, stderr)
		}}
}

func runPlayback(ctx context.Context, theme string, fs *flag.FlagSet, stderr io.Writer) int {
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	app, rec, err := playbackAppOf(fs.Arg(0), tuiOpts{theme: theme}, lipgloss.NewRenderer(os.Stdout))
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch playback: %v\n", err)
		return 1
	}
	defer rec.Close()
	p := tea.NewProgram(app, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithContext(ctx))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stderr, "poisonwatch playback: %v\n", err)
		return 1
	}
	// Reading stopped at a cap while the playback showed what came before
	// it: the operator is told, as a report would be.
	if err := rec.Err(); errors.Is(err, safeload.ErrTooLarge) {
		fmt.Fprintf(stderr, "poisonwatch playback: %v\n", err)
		return 1
	}
	return 0
}

// playbackApp opens a recording and builds the dashboard on it.
func playbackApp(path string, o tuiOpts, r *lipgloss.Renderer) (*ui.App, error) {
	app, _, err := playbackAppOf(path, o, r)
	return app, err
}

// playbackAppOf is playbackApp with the recording, for closing.
func playbackAppOf(path string, o tuiOpts, r *lipgloss.Renderer) (*ui.App, *record.Recording, error) {
	rec, err := record.OpenLight(path)
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
		sources = append(sources, recordedQMgr(name))
	}
	interval := pl.Interval()
	if interval <= 0 {
		interval = 2 * time.Second
	}
	return ui.New(ui.Options{Sources: sources, Theme: th, Renderer: r, Interval: interval, Playback: pl, User: osUser()}), rec, nil
}

// recorded names a recorded queue manager: a source with nothing to send.
type recordedQMgr string

var closedSnapshots = func() chan *mqwatch.Snapshot { c := make(chan *mqwatch.Snapshot); close(c); return c }()

func (r recordedQMgr) Name() string                        { return string(r) }
func (r recordedQMgr) Snapshots() <-chan *mqwatch.Snapshot { return closedSnapshots }
func (r recordedQMgr) Refresh()                            {}
func (r recordedQMgr) SetFocus(string)                     {}
func (r recordedQMgr) Forget(string, ...mqwatch.Key)       {}

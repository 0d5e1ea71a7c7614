package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// actionOps runs operator actions through the engine.
type actionOps interface {
	Plan(ctx context.Context, req ops.OpRequest) (ops.OpPlan, error)
	Run(ctx context.Context, req ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error)
}

type dialogPhase int

const (
	phasePlanning dialogPhase = iota // dry-run in flight
	phaseConfirm
	phaseRunning
	phaseDone
)

// dialog is one action from dry-run to result. While it is open live updates
// are held, so the picture the operator confirms does not move under them.
type dialog struct {
	base      // ScreenDialog on the source queue: the breadcrumb names it
	seq       int
	req       ops.OpRequest
	phase     dialogPhase
	plan      ops.OpPlan
	err       error
	hidden    int      // marked messages hidden by the filter
	from      []string // the groups the marked messages come from
	stale     string   // another session acted on some of the messages
	onRun     bool     // focus: false = Cancel (the default), true = Run
	typed     textinput.Model
	needType  bool
	askTarget bool // move/replay: the target queue is typed first
	prog      progress.Model
	last      ops.OpProgress
	result    ops.OpResult
	cancel    context.CancelFunc
	updates   chan ops.OpProgress
	started   time.Time
	// retarget: the target input was reopened over a dry run's result
	// (ctrl+t); esc returns to that result instead of closing the dialog.
	retarget bool
	create   *createStep // ctrl+n: the target queue being defined (dialog_create.go)
	// marks are the marked messages it acts on (a snapshot), total how
	// many; nil for the message under the cursor. req.Messages is then at
	// most planSample of them, what the dry run plans (dialog_marks.go).
	marks *model.Selection
	total int
	w     int // the width it was laid out for
	// confirmedY: y confirmed an action on one message (dialog_confirm.go).
	confirmedY bool
	// parked: the target was defined here with ctrl+n to park the messages
	// in; defined names the queue so defined, which a cancel leaves.
	parked  bool
	defined string
	// emptied says that a colleague's run took every message: nothing is
	// left to confirm (dialog_room.go).
	emptied string
	// checkFrom is when the check for messages coming back began.
	checkFrom time.Time
}

type planMsg struct {
	seq  int
	plan ops.OpPlan
	err  error
}

type progressMsg struct {
	seq int
	p   ops.OpProgress
}

type runDoneMsg struct {
	seq int
	res ops.OpResult
	err error
}

// dashboardVerify is how long after a requeue, move or replay the dialog
// watches for the messages coming back (R10f).
const dashboardVerify = 30 * time.Second

// openDialog starts an action on the marked messages (or the one under the
// cursor): the dry-run plan is computed first.
// msgs is nil when messages are marked on loc's queue: the dialog acts on
// the marks, which it pulls from the selection (dialog_marks.go).
func openDialog(c common, op ops.Op, msgs []mqwatch.Summary, loc model.Location, hidden int) tea.Cmd {
	queue := loc.Queue
	var marks *model.Selection
	if sel := c.Session().marksOn(queue); len(msgs) == 0 && sel != nil {
		marks = sel.Snapshot()
		msgs = planSampleOf(marks)
	}
	if len(msgs) == 0 {
		c.Flash("nothing selected: space marks messages, or put the cursor on one")
		return nil
	}
	d := &dialog{seq: c.Session().nextSeq(), req: ops.OpRequest{Op: op, QMgr: loc.QMgr, Queue: queue, Messages: msgs, User: c.Opts().User},
		hidden: hidden, from: markedFrom(marks, loc), prog: progress.New(progress.WithDefaultGradient())}
	if marks != nil {
		d.marks, d.total = marks, marks.Len()
	}
	if op == ops.OpRequeue || op == ops.OpMove || op == ops.OpReplay {
		d.req.Verify = dashboardVerify // the dashboard always checks what comes back (R10f)
	}
	d.loc = model.Location{Screen: model.ScreenDialog, QMgr: loc.QMgr, Queue: queue, Label: string(op)}
	if len(d.from) > 1 { // some marks are not in the group on view: the crumb says so
		d.loc.Label = string(op) + " marks from another group"
	}
	d.needType = d.count() > 1 || op == ops.OpDiscard
	if op == ops.OpExport {
		d.needType = false // a browse: nothing on the queue changes
	}
	d.typed = textinput.New()
	d.typed.Prompt = "count: "
	if op == ops.OpMove || op == ops.OpReplay {
		d.typed.Prompt = "target queue: "
		d.typed.Placeholder = ""
		d.needType = true
	}
	if op == ops.OpExport {
		d.typed.Prompt = "export to dmpmqmsg file: "
		d.typed.SetValue(filepath.Join(c.Session().exportDir, exportName(loc.QMgr, queue, c.Opts().Now())))
	}
	pushed := c.Push(d) // lays the input out for its prompt
	if op == ops.OpMove || op == ops.OpReplay || op == ops.OpExport {
		d.phase, d.askTarget = phaseConfirm, true
		// An export's file name is ready: enter takes it, as it takes a
		// value the operator typed.
		d.onRun = op == ops.OpExport
		d.typed.Focus()
		return pushed
	}
	return tea.Batch(pushed, d.planCmd(c))
}

func (d *dialog) planCmd(c common) tea.Cmd {
	d.phase = phasePlanning
	req, seq, ops, ctx := d.req, d.seq, c.Opts().Ops, c.Opts().Ctx
	req.DryRun = true
	return func() tea.Msg {
		p, err := ops.Plan(ctx, req)
		return planMsg{seq: seq, plan: p, err: err}
	}
}

func (d *dialog) runCmd(c common) tea.Cmd {
	ctx, cancel := context.WithCancel(c.Opts().Ctx)
	d.cancel, d.phase, d.started = cancel, phaseRunning, c.Opts().Now()
	d.updates = make(chan ops.OpProgress, 1)
	req, seq, eng, ch := d.req, d.seq, c.Opts().Ops, d.updates
	runs := eng.Run
	if d.sampled() { // chunk by chunk, never the whole list at once; one run for the room
		marks, j := d.marks, c.Session().journal
		runs = func(ctx context.Context, req ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
			return RunMarks(ctx, eng, req, marks, model.RunChunk, progress, j)
		}
	}
	run := func() tea.Msg {
		res, err := runs(ctx, req, func(p ops.OpProgress) {
			select { // latest wins: the bar needs only the newest figures
			case ch <- p:
			default:
				select {
				case <-ch:
				default:
				}
				ch <- p
			}
		})
		close(ch)
		return runDoneMsg{seq: seq, res: res, err: err}
	}
	return tea.Batch(run, waitProgress(seq, ch))
}

func waitProgress(seq int, ch chan ops.OpProgress) tea.Cmd {
	return func() tea.Msg {
		p, ok := <-ch
		if !ok {
			return nil
		}
		return progressMsg{seq: seq, p: p}
	}
}

// receive takes the dry run, the progress and the result of what the dialog
// started; those of another dialog (an older seq) are not its. Another
// session's run in the room (roomRunMsg) has it redo its dry run.
func (d *dialog) receive(c common, msg tea.Msg) (tea.Cmd, bool) {
	switch m := msg.(type) {
	case roomRunMsg:
		return d.replanAfterRoomRun(c, m), true
	case planMsg:
		if m.seq != d.seq {
			return nil, false
		}
		d.plan, d.err, d.phase, d.retarget = m.plan, m.err, phaseConfirm, false
		if d.needType {
			d.typed.SetValue("")
			d.typed.Prompt = "count: "
			d.typed.Placeholder = ""
			d.typed.Focus()
		}
	case progressMsg:
		if m.seq != d.seq {
			return nil, false
		}
		d.last = m.p
		if d.checking() && d.checkFrom.IsZero() {
			d.checkFrom = c.Opts().Now() // the dashboard goes live again (holds)
		}
		return waitProgress(d.seq, d.updates), true
	case runDoneMsg:
		if m.seq != d.seq {
			return nil, false
		}
		d.result, d.err, d.phase = m.res, m.err, phaseDone
		return afterRun(c, m.res), true
	default:
		return nil, false
	}
	return nil, true
}

// afterRun keeps a finished run for the audit view (a requeue loop's
// alert, R10f, reads the journal the engine wrote it to), tells the
// watcher what it no longer has to read (it polls at once); the message
// screens of the queue hear which messages left (goneMsg).
func afterRun(c common, res ops.OpResult) tea.Cmd {
	c.Session().journalRun(res)
	req := res.Plan.Request
	s := sourceOf(c.Opts(), req.QMgr)
	if s == nil {
		return nil
	}
	var gone []mqwatch.Key
	for _, it := range res.Items {
		if it.Removed(req.Op) {
			gone = append(gone, it.Msg.Key())
		}
	}
	if len(gone) > 0 {
		s.Forget(req.Queue, gone...)
	}
	s.Refresh()
	c.Session().marks.Clear()
	return goneBy(res)
}

// checking: every message is moved and the engine watches, for req.Verify,
// whether they come back (R10f).
func (d *dialog) checking() bool {
	p := d.last
	return d.phase == phaseRunning && d.req.Verify > 0 && p.Total > 0 && p.Done+p.Skipped+p.Failed >= p.Total
}

// holds says the dialog holds live updates: while the operator reads the
// dry run and while messages move, the picture stands still; during the
// check after the moves and on the result there is nothing to hold it for,
// and an admin watching for 30 s whether messages come back wants the
// dashboard live. A nil dialog holds nothing.
func (d *dialog) holds() bool {
	return d != nil && d.phase != phaseDone && !d.checking()
}

func fmtRate(r float64) string {
	if r <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f msg/s", r)
}

// exportDirOf is where exports go unless the operator types another path:
// the state directory, next to the audit log, never the current directory.
func exportDirOf(o *Options) string {
	if o.ExportDir != "" {
		return o.ExportDir
	}
	if d, err := ops.StateDir(); err == nil {
		return d
	}
	return "."
}

// exportName proposes a file named after the queue manager, the queue and
// the time, as the export command names it.
func exportName(qmgr, queue string, now time.Time) string {
	return ops.ExportName(qmgr, queue, now)
}

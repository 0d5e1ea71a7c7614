package ui

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// editOps is what edit and resend (R10i) needs of Operations; an Operations
// without it has the key off.
type editOps interface {
	PlanEdit(ctx context.Context, req ops.EditRequest) (ops.EditPlan, error)
	Edit(ctx context.Context, req ops.EditRequest) (ops.EditResult, error)
}

// editKeys are the keys of edit and resend.
type editKeys struct {
	Edit, Save, Switch, Confirm key.Binding
}

func newEditKeys() editKeys {
	return editKeys{
		Edit:    key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit and resend")),
		Save:    key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "save, show the plan")),
		Switch:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "switch Cancel / Put")),
		Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "press")),
	}
}

type editPhase int

const (
	editExternal editPhase = iota // $EDITOR has the terminal
	editTyping                    // the in-dashboard textarea (war room)
	editPlanning
	editConfirm
	editRunning
	editDone
)

// editScreen takes one message from the edited body to the result: the
// plan (diff, headers kept, target), a confirmation with Cancel focused,
// the run.
type editScreen struct {
	base
	seq      int
	sum      mqwatch.Summary
	doc      bodyedit.Doc
	ta       textarea.Model
	phase    editPhase
	req      ops.EditRequest
	plan     ops.EditPlan
	res      ops.EditResult
	err      error
	runFocus bool // the Put button has the focus; Cancel has it first
	off      int  // first plan line on view
}

// editorDoneMsg is the edited text, read back (and the file removed) as
// soon as the editor ended; err is the editor's failure, readErr the
// read's.
type editorDoneMsg struct {
	seq     int
	text    string
	err     error
	readErr error
}

type editPlanMsg struct {
	seq  int
	plan ops.EditPlan
	err  error
}

type editDoneMsg struct {
	seq int
	res ops.EditResult
	err error
}

// editBinding is the message screen's e.
func (d *detailScreen) editBinding(c common) binding {
	_, can := c.Opts().Ops.(editOps)
	return bind(newEditKeys().Edit, func() tea.Cmd { return d.startEdit(c) }, offWhen(func() string {
		switch {
		case c.Opts().ReadOnly:
			return cmp.Or(c.Opts().ReadOnlyWhy, "read-only: editing a message changes its queue")
		case d.gone != "":
			return "this message is no longer on " + d.loc.Queue + ": " + d.gone
		case d.msg == nil:
			return "the message is still being read"
		case d.msg.Truncated():
			return "only part of the message was read: it cannot be edited whole"
		}
		if _, ok := c.Opts().Ops.(editOps); !ok {
			return "this dashboard has no action engine to edit with"
		}
		return ""
	}), hideIf(!can || c.Opts().ReadOnly))
}

// startEdit opens the body: in $VISUAL or $EDITOR, with the terminal handed
// over and restored, or, in the war room (no terminal of ours to hand
// over), in a textarea on the screen.
func (d *detailScreen) startEdit(c common) tea.Cmd {
	s := mqwatch.Summarize(d.msg)
	seq := c.Session().nextSeq()
	e := &editScreen{base: base{loc: model.Location{Screen: model.ScreenDialog, QMgr: d.loc.QMgr, Queue: d.loc.Queue, Label: "edit and resend"}},
		seq: seq, sum: d.sum, doc: bodyedit.Open(d.msg.Data[s.BodyOffset:], s.BodyCCSID, s.Encoding)}
	e.req = ops.EditRequest{QMgr: d.loc.QMgr, Queue: d.loc.Queue, Msg: d.sum, User: c.Opts().User,
		Verify: dashboardVerify} // the dashboard checks what comes back (R10f), as for requeue
	if c.Opts().Room != nil {
		e.phase = editTyping
		e.ta = textarea.New()
		e.ta.ShowLineNumbers = true
		e.ta.CharLimit = 0
		e.ta.MaxHeight = 0
		e.ta.SetValue(e.doc.Text)
		if e.ta.Value() != e.doc.Text {
			// The textarea drops control characters, turns tabs into spaces
			// and keeps at most 10,000 lines: saving would change what the
			// operator did not touch.
			c.Flash("not editable here (tabs, control characters or over 10,000 lines): use poisonwatch edit")
			return nil
		}
		e.ta.Focus()
		return c.Push(e)
	}
	f, err := os.CreateTemp("", "poisonwatch-edit-*."+e.doc.Mode.String())
	if err == nil {
		_, err = f.WriteString(e.doc.Text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		c.Flash("cannot write the body for the editor: " + err.Error())
		return nil
	}
	cmd := c.Push(e)
	seq, path := e.seq, f.Name()
	return tea.Batch(cmd, tea.ExecProcess(editorCommand(path), func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return editorDoneMsg{seq: seq, err: err}
		}
		b, rerr := os.ReadFile(path)
		return editorDoneMsg{seq: seq, text: string(b), readErr: rerr}
	}))
}

// editorCommand runs $VISUAL, else $EDITOR, else vi, through the shell so
// an editor given with arguments ("code --wait") works.
func editorCommand(path string) *exec.Cmd {
	ed := cmp.Or(os.Getenv("VISUAL"), os.Getenv("EDITOR"), "vi")
	return exec.Command("/bin/sh", "-c", ed+` "$1"`, "poisonwatch-edit", path)
}

// receive takes what edit's commands answer: the edited text, the plan,
// the run's result.
func (e *editScreen) receive(c common, msg tea.Msg) (tea.Cmd, bool) {
	switch m := msg.(type) {
	case editorDoneMsg:
		if m.seq != e.seq {
			return nil, false
		}
		if m.err != nil {
			c.Flash("the editor failed, nothing changed: " + m.err.Error())
			return c.Pop(), true
		}
		if m.readErr != nil {
			c.Flash("cannot read the edited body, nothing changed: " + m.readErr.Error())
			return c.Pop(), true
		}
		return e.saved(c, e.doc.TrimFinalNewline(m.text)), true
	case editPlanMsg:
		if m.seq != e.seq {
			return nil, false
		}
		e.plan, e.err, e.phase = m.plan, m.err, editConfirm
		return nil, true
	case editDoneMsg:
		if m.seq != e.seq {
			return nil, false
		}
		e.res, e.err, e.phase = m.res, m.err, editDone
		c.Session().journalEdit(m.res)
		if !m.res.Done {
			return nil, true
		}
		c.Flash("edited: the copy is on " + e.res.Plan.Target + ", the original archived in " + e.res.ArchiveFile)
		// The message screen below says its message is gone.
		gone := goneMsg{qmgr: e.loc.QMgr, queue: e.loc.Queue, why: map[mqwatch.Key]string{
			e.sum.Key(): fmt.Sprintf("edited by your run: the copy is on %s", e.res.Plan.Target)}}
		return func() tea.Msg { return gone }, true
	}
	return nil, false
}

// saved parses the edited text back into the body's bytes and asks for the
// plan; a character the CCSID cannot hold or a damaged hex line is shown
// with its line and column, and nothing is planned.
func (e *editScreen) saved(c common, text string) tea.Cmd {
	body, err := e.doc.Parse(text)
	if err != nil {
		if e.phase == editTyping {
			c.Flash("not saved: " + err.Error())
			return nil
		}
		c.Flash("edit not applied (" + e.doc.Mode.String() + "): " + err.Error())
		return c.Pop()
	}
	e.req.Body, e.phase = body, editPlanning
	ops, _ := c.Opts().Ops.(editOps)
	req, seq, ctx := e.req, e.seq, c.Opts().Ctx
	req.DryRun = true
	return func() tea.Msg {
		p, err := ops.PlanEdit(ctx, req)
		return editPlanMsg{seq: seq, plan: p, err: err}
	}
}

// put runs the edit the plan showed.
func (e *editScreen) put(c common) tea.Cmd {
	e.phase = editRunning
	ops, _ := c.Opts().Ops.(editOps)
	req, seq, ctx := e.req, e.seq, c.Opts().Ctx
	return func() tea.Msg {
		res, err := ops.Edit(ctx, req)
		return editDoneMsg{seq: seq, res: res, err: err}
	}
}

package ui

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// held runs cmd and what it batches, and returns the messages it ends
// with, without giving them to the App: answers that come after the
// operator moved on.
func held(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, held(c)...)
		}
		return out
	}
	if cmds, ok := sequence(msg); ok {
		var out []tea.Msg
		for _, c := range cmds {
			out = append(out, held(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// TestDefineAnsweredAfterItsDialogClosedIsJournaled: a define sent from
// the park form reaches the form by App.receive even when the operator left
// the form and closed the dialog before the command server answered: the
// audit view lists it and the flash says it was defined.
func TestDefineAnsweredAfterItsDialogClosedIsJournaled(t *testing.T) {
	fake := &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: fake, User: "op1"})
	openParkForm(t, a)
	_, cmd := a.Update(keyMsg("enter")) // define: the answer is held
	answers := held(cmd)
	press(a, "esc", "esc", "esc") // the form, the target input, the dialog
	if a.actionDialog() != nil {
		t.Fatalf("the dialog is still open:\n%s", a.View())
	}
	if len(a.sess.watching) != 1 {
		t.Fatalf("%d awaiting an answer, want the form", len(a.sess.watching))
	}
	for _, m := range answers {
		a.Update(m)
	}
	es := a.sess.journal.Entries()
	if len(es) != 1 || es[0].Kind != journal.Define || !strings.Contains(a.flash, "defined: DEFINE QLOCAL(PARK.Q)") {
		t.Fatalf("journal %+v, flash %q", es, a.flash)
	}
	if len(a.sess.watching) != 0 {
		t.Errorf("%d still watching after the answer", len(a.sess.watching))
	}
}

// TestPredictionAnsweredAfterItsTriageClosedIsKept: a rules prediction
// whose triage was left before it answered is kept (not left under way
// for good), and the triage opened again shows it without asking again.
func TestPredictionAnsweredAfterItsTriageClosedIsKept(t *testing.T) {
	p := newEnginePredictor(t)
	a := rulesApp(t, 200, 48, Options{Rules: p})
	_, cmd := a.Update(keyMsg("d")) // the DEADQ's triage starts a prediction
	answers := held(cmd)
	press(a, "esc")
	ref := model.QueueRef{QMgr: "QM1", Queue: "QM1.DEADQ"}
	if pr := a.sess.rules.pred.Of(ref); pr == nil || !pr.Running {
		t.Fatalf("no prediction under way: %+v", pr)
	}
	for _, m := range answers {
		a.Update(m)
	}
	if pr := a.sess.rules.pred.Of(ref); pr.Running || pr.Gen != 1 {
		t.Fatalf("the answer was not kept: running %v, gen %d", pr.Running, pr.Gen)
	}
	calls := p.calls
	press(a, "d")
	if v := a.View(); strings.Contains(v, "predicting what it would do") || p.calls != calls {
		t.Fatalf("the triage asked again (%d calls, %d before) or shows no prediction:\n%s", p.calls, calls, v)
	}
}

// TestResultForAClosedScreenIsDropped: a message read for a message
// screen that was closed finds no screen: nothing else takes it.
func TestResultForAClosedScreenIsDropped(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter")
	_, cmd := a.Update(keyMsg("enter")) // open a message: its read is held
	answers := held(cmd)
	d := topIs[*detailScreen](t, a)
	press(a, "esc")
	for _, m := range answers {
		a.Update(m)
	}
	if d.msg != nil || !d.loading {
		t.Fatal("a closed message screen took its read")
	}
}

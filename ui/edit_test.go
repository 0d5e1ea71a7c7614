package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// editFakeOps plans and runs edits as the engine would say, changing nothing.
type editFakeOps struct {
	*fakeOps
	edits []ops.EditRequest
}

func (o *editFakeOps) PlanEdit(_ context.Context, r ops.EditRequest) (ops.EditPlan, error) {
	s := mqwatch.Summarize(&o.msg)
	old := string(o.msg.Data[s.BodyOffset:])
	return ops.EditPlan{Request: r, Target: "INVOICE.IN@QM2", Mode: bodyedit.Text,
		Summary: "Would edit message " + strings.Repeat("41", 3) + "… on QM1.DEADQ: body put to INVOICE.IN@QM2; the original is archived, then removed",
		Headers: []string{"MQDLH removed (reason MQRC_UNKNOWN_OBJECT_NAME (2085), was for INVOICE.IN@QM2)",
			"MQMD context kept: user , appl amqrmppa, put 2026-03-09 14:29:15", "MsgId: a new one (the copy is a new message; BackoutCount 0)"},
		Diff: bodyedit.Diff(old, string(r.Body), 2)}, nil
}

func (o *editFakeOps) Edit(ctx context.Context, r ops.EditRequest) (ops.EditResult, error) {
	o.edits = append(o.edits, r)
	p, _ := o.PlanEdit(ctx, r)
	return ops.EditResult{Plan: p, Done: true, Text: "edited", ArchiveFile: "/state/archive/QM1.DEADQ-1.dmp", AuditFile: "/state/audit.jsonl"}, nil
}

// editorScript is an $EDITOR that changes the amount in the file it is given.
func editorScript(t *testing.T) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ed.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\nsed -i 's/12.50/13.75/' \"$1\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", p)
}

// TestEditRunsTheEditorAndPutsTheEditedCopy: e hands the terminal to
// $EDITOR (a script that edits the file), the plan shows the diff, and the
// Put button (after Cancel, which has the focus first) runs the edit.
func TestEditRunsTheEditorAndPutsTheEditedCopy(t *testing.T) {
	editorScript(t)
	ops := &editFakeOps{fakeOps: &fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter")
	topIs[*detailScreen](t, a)
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(120, 35))
	f := &flow{t: t, tm: tm}
	f.keys("e")
	f.waitFor("Put edited copy", `- {"invoice":4711,"amount":"12.50"`, `+ {"invoice":4711,"amount":"13.75"`, "INVOICE.IN@QM2")
	f.keys("tab", "enter")
	f.waitFor("edited: the copy is on INVOICE.IN@QM2")
	_ = tm.Quit()
	tm.WaitFinished(t, teatest.WithFinalTimeout(flowWait))
	if len(ops.edits) != 1 || !strings.Contains(string(ops.edits[0].Body), `"amount":"13.75"`) || ops.edits[0].Queue != "QM1.DEADQ" {
		t.Fatalf("edits %+v", ops.edits)
	}
}

// editAt opens the plan of an edit at w×h, the editor's work done by hand.
func editAt(t *testing.T, w, h int, o Options) (*App, *editFakeOps) {
	ops := &editFakeOps{fakeOps: &fakeOps{msg: sampleMessage()}}
	o.Ops = ops
	a, _ := newTestApp(t, w, h, o)
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "e")
	return a, ops
}

func TestEditPlanGoldens(t *testing.T) {
	t.Setenv("EDITOR", "true")
	t.Setenv("TMPDIR", t.TempDir())
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"200x60", 200, 60}} {
		t.Run(size.name, func(t *testing.T) {
			a, _ := editAt(t, size.w, size.h, Options{})
			e := topIs[*editScreen](t, a)
			_, cmd := a.Update(editorDoneMsg{seq: e.seq, text: strings.Replace(e.doc.Text, "4711", "4712", 1)})
			drain(a, cmd)
			v := a.View()
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

func TestEditInTheWarRoomUsesATextarea(t *testing.T) {
	a, ops := editAt(t, 120, 35, Options{Room: newFakeRoom()})
	e := topIs[*editScreen](t, a)
	if e.phase != editTyping || !strings.Contains(a.View(), "ctrl+s saves") {
		t.Fatalf("no textarea in the war room:\n%s", a.View())
	}
	press(a, "X")
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	drain(a, cmd)
	if e.phase != editConfirm || !strings.Contains(a.View(), `gotcha"}X`) {
		t.Fatalf("ctrl+s did not plan the typed edit:\n%s", a.View())
	}
	press(a, "enter") // Cancel has the focus
	if len(ops.edits) != 0 {
		t.Fatal("enter on Cancel ran the edit")
	}
	if _, ok := a.top().(*detailScreen); !ok {
		t.Fatalf("Cancel left %T on view", a.top())
	}
}

func TestEditIsOffReadOnly(t *testing.T) {
	ops := &editFakeOps{fakeOps: &fakeOps{msg: sampleMessage()}}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops, ReadOnly: true, ReadOnlyWhy: "viewers cannot change queues"})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "e")
	if _, ok := a.top().(*detailScreen); !ok || !strings.Contains(a.View(), "viewers cannot change queues") {
		t.Fatalf("e in read-only mode:\n%s", a.View())
	}
}

func TestEditRefusesAnUnparsableHexEdit(t *testing.T) {
	m := sampleMessage()
	m.Data = append(m.Data[:len(m.Data)-10], 0x00, 0x01, 0xff, 0xfe)
	m.Length = len(m.Data)
	ops := &editFakeOps{fakeOps: &fakeOps{msg: m}}
	t.Setenv("TMPDIR", t.TempDir())
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "e")
	e := topIs[*editScreen](t, a)
	if e.doc.Mode != bodyedit.Hex {
		t.Fatalf("a binary body is edited as %v", e.doc.Mode)
	}
	_, cmd := a.Update(editorDoneMsg{seq: e.seq, text: strings.Replace(e.doc.Text, "00000010:", "00000011:", 1)})
	drain(a, cmd)
	if _, ok := a.top().(*detailScreen); !ok || !strings.Contains(a.View(), "line 2, column 1") {
		t.Fatalf("a damaged hex edit was not refused with its line:\n%s", a.View())
	}
}

func TestEditInTheWarRoomRefusesABodyTheTextareaWouldChange(t *testing.T) {
	m := sampleMessage()
	m.Data = append(m.Data, "\tindented"...)
	m.Length = len(m.Data)
	a, _ := newTestApp(t, 120, 35, Options{Ops: &editFakeOps{fakeOps: &fakeOps{msg: m}}, Room: newFakeRoom()})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "e")
	if _, ok := a.top().(*detailScreen); !ok || !strings.Contains(a.View(), "use poisonwatch edit") {
		t.Fatalf("a body with a tab opened in the textarea:\n%s", a.View())
	}
}

func TestEditTextareaGoldens(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"200x60", 200, 60}} {
		t.Run(size.name, func(t *testing.T) {
			a, _ := editAt(t, size.w, size.h, Options{Room: newFakeRoom()})
			topIs[*editScreen](t, a)
			v := a.View()
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/model"
)

// typed is the keys that type s into an input.
func typed(s string) []string {
	var out []string
	for _, r := range s {
		out = append(out, string(r))
	}
	return out
}

// TestFlowWriteRulesDialog runs the program: W on the DEADQ triage opens a
// dialog listing the groups, IGNORE for each (no table is loaded); the
// operator forwards the first group to a queue without its MQDLH, discards
// the second, picks the file and writes it; the table written parses and
// says exactly that. esc in a second dialog writes nothing, and a file that
// exists is never overwritten.
func TestFlowWriteRulesDialog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "mine.rules")
	f := startFlow(t, Options{ExportDir: dir})
	f.feed(incident(1, 300))
	f.waitFor("QM1.DEADQ")
	f.keys("d", "W")
	f.waitFor("Write a runmqdlq rules table: 2 groups of 300 messages on QM1.DEADQ", "ACTION(IGNORE)")
	f.keys("l")
	f.waitFor("ACTION(RETRY)")
	f.keys("right") // FWD asks for its queue at once
	f.waitFor("FWDQ (QUEUE, QUEUE@QMGR")
	f.keys(typed("PARKING.Q")...)
	f.keys("enter", "x")
	f.waitFor("ACTION(FWD) FWDQ('PARKING.Q') HEADER(NO)")
	f.keys("j", "h")
	f.waitFor("ACTION(DISCARD)")
	f.keys("f", "ctrl+u")
	f.keys(typed(path)...)
	f.keys("enter")
	f.waitFor("file: " + path)
	f.keys("enter")
	f.waitFor("rules table of 2 groups written to " + path)

	tab, err := dlqrules.ParseFile(path)
	if err != nil {
		t.Fatalf("the written table does not parse: %v", err)
	}
	if len(tab.Rules) != 2 {
		t.Fatalf("%d rules, want 2", len(tab.Rules))
	}
	if r := tab.Rules[0]; r.Action != dlqrules.Fwd || r.FwdQ != "PARKING.Q" || r.Header {
		t.Errorf("rule 1 = %s, want FWD to PARKING.Q with HEADER(NO)", r.String())
	}
	if r := tab.Rules[1]; r.Action != dlqrules.Discard {
		t.Errorf("rule 2 = %s, want DISCARD", r.String())
	}
	s := dlqSummary(0, 2085, "INVOICE.IN")
	if m := tab.MatchSummary(&s); m.Rule != 0 || !m.Certain {
		t.Errorf("a 2085 INVOICE.IN message meets rule %d of the written table, want 1", m.Rule+1)
	}
	before, _ := os.ReadFile(path)

	f.keys("W")
	f.waitFor("Write a runmqdlq rules table")
	f.keys("esc")
	f.waitFor("QM1.DEADQ grouped by")
	f.keys("W", "f", "ctrl+u")
	f.keys(typed(path)...)
	f.keys("enter", "enter")
	f.waitFor("not written: " + path + " exists")
	f.keys("esc")
	a := f.quit()
	files, _ := filepath.Glob(filepath.Join(dir, "*.rules"))
	after, _ := os.ReadFile(path)
	if len(files) != 0 || string(after) != string(before) || a.top().location().Screen.String() != "Triage" {
		t.Errorf("esc or an existing file wrote something: %v, file changed %v, on %s", files, string(after) != string(before), a.top().location().Screen)
	}
}

// TestWriteRulesDialogRefusesABadTable: FWD with no queue would be refused
// by runmqdlq (FWDQ is required), so enter writes nothing and says why.
func TestWriteRulesDialogRefusesABadTable(t *testing.T) {
	dir := t.TempDir()
	a, _ := newTestApp(t, 80, 24, Options{ExportDir: dir})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.WriteRules)
	press(a, "l", "l", "esc") // FWD, and the queue input left empty
	press(a, "enter")
	v := a.View()
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 || !strings.Contains(v, "not written: the table would be refused") {
		t.Fatalf("a table with FWD and no queue: files %v\n%s", files, v)
	}
	checkFrame(t, v, 80, 24)
	press(a, "t")
	press(a, typed("&DESTQ@&DESTQM")...)
	press(a, "enter", "enter")
	files, _ := filepath.Glob(filepath.Join(dir, "*.rules"))
	if len(files) != 1 {
		t.Fatalf("after giving the queue: files %v, status %q", files, a.flash)
	}
	tab, err := dlqrules.ParseFile(files[0])
	if err != nil || tab.Rules[0].FwdQ != dlqrules.RefDestQ || tab.Rules[0].FwdQM != dlqrules.RefDestQM {
		t.Fatalf("written table: %v %+v", err, tab)
	}
}

// TestWriteRulesDialogHelp: ? lists the dialog's keys, and only them: no
// global key works under a dialog.
func TestWriteRulesDialogHelp(t *testing.T) {
	a, _ := newTestApp(t, 160, 48, Options{})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.WriteRules, km.Help)
	v := a.View()
	for _, s := range []string{"write the table", "next action for the group", "FWD: the queue to forward to", "FWD: keep or remove the MQDLH", "the file to write", "cancel: write nothing"} {
		if !strings.Contains(v, s) {
			t.Errorf("help lacks %q:\n%s", s, v)
		}
	}
	if strings.Contains(v, "Everywhere") {
		t.Errorf("help under a dialog lists the global keys:\n%s", v)
	}
	press(a, "?", "t")
	if !strings.Contains(a.flash, "only ACTION(FWD) has a queue") {
		t.Errorf("t on an IGNORE group: status %q", a.flash)
	}
}

// TestWriteRulesDialogRuleLineWrapsAt80x24: the rule under the cursor is
// read whole at 80x24, wrapped into the rows the short group list leaves
// empty, not cut.
func TestWriteRulesDialogRuleLineWrapsAt80x24(t *testing.T) {
	a, _ := newTestApp(t, 80, 24, Options{ExportDir: "/var/mqm/poisonwatch/state/incident-2026-12-01/exports"})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.WriteRules)
	press(a, "l", "l") // FWD asks for its queue at once
	press(a, typed("&DESTQ@&DESTQM")...)
	press(a, "enter")
	d := topIs[*rulesDialog](t, a)
	v := a.View()
	checkFrame(t, v, 80, 24)
	rule := "rule 1: " + strings.Join(strings.Fields(d.group().RuleString()), " ")
	if !strings.Contains(joinedText(v), rule) {
		t.Fatalf("the rule line is cut at 80x24, want %q:\n%s", rule, v)
	}
	if !strings.Contains(strings.Join(strings.Fields(ansi.Strip(v)), ""), "file:"+d.path) {
		t.Fatalf("the file line is cut at 80x24, want %q:\n%s", d.path, v)
	}
}

// TestWrittenRulesFileIsNamedWholeAt80Columns: the flash naming the file
// just written wraps over the footer's rows instead of cutting the path.
func TestWrittenRulesFileIsNamedWholeAt80Columns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "incident-2026-12-01", "exports", "queue-manager-QM1")
	a, _ := newTestApp(t, 80, 24, Options{ExportDir: dir})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.WriteRules)
	press(a, "enter")
	files, _ := filepath.Glob(filepath.Join(dir, "*.rules"))
	if len(files) != 1 {
		t.Fatalf("no table written: %v, status %q", files, a.flash)
	}
	v := a.View()
	checkFrame(t, v, 80, 24)
	if !strings.Contains(strings.Join(strings.Fields(ansi.Strip(v)), ""), files[0]) {
		t.Fatalf("the flash does not name %s whole:\n%s", files[0], v)
	}
}

// TestWriteRulesDialogListsFwdCandidatesAndWarnsOfAMissingQueue: typing the
// FWD queue lists the known queues it begins (as the M dialog does); a FWDQ
// naming a queue the queue manager does not have is warned of, in the dialog
// and in what the write says.
func TestWriteRulesDialogListsFwdCandidatesAndWarnsOfAMissingQueue(t *testing.T) {
	dir := t.TempDir()
	a, _ := newTestApp(t, 120, 35, Options{ExportDir: dir})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	pressKey(t, a, km.DeadQ, km.WriteRules)
	press(a, "l", "l") // FWD asks for its queue
	press(a, typed("ORDERS.")...)
	known := model.CompleteNames("ORDERS.", knownQueues(a.state, "QM1"))
	if len(known) < 2 {
		t.Fatalf("the fixture needs two queues beginning ORDERS.: %v", known)
	}
	for _, n := range known[:2] {
		if !strings.Contains(a.View(), n) {
			t.Fatalf("typing ORDERS. does not list %s:\n%s", n, a.View())
		}
	}
	press(a, "ctrl+u")
	press(a, typed("NO.SUCH.QUEUE")...)
	press(a, "enter")
	want := "rule 1: QM1 has no queue NO.SUCH.QUEUE"
	if !strings.Contains(joinedText(a.View()), want) {
		t.Fatalf("no warning of the missing FWDQ:\n%s", a.View())
	}
	press(a, "enter")
	if !strings.Contains(a.flash, want) {
		t.Fatalf("the write does not warn: %q", a.flash)
	}
}

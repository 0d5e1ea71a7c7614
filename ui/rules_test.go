package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// typeCommand opens the palette and types cmd into it, then enter.
func typeCommand(cmd string) []string {
	keys := []string{":"}
	for _, r := range cmd {
		if r == ' ' {
			keys = append(keys, "space")
		} else {
			keys = append(keys, string(r))
		}
	}
	return append(keys, "enter")
}

// rulesApp is the incident with the test table loaded through the palette.
func rulesApp(t *testing.T, w, h int, o Options) *App {
	t.Helper()
	if o.Ops == nil {
		o.Ops = &fakeOps{msg: sampleMessage()}
	}
	if o.Rules == nil {
		o.Rules = newEnginePredictor(t)
	}
	a, _ := newTestApp(t, w, h, o)
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, typeCommand("rules testdata/rules/incident.rules")...)
	if a.sess.rules == nil {
		t.Fatalf("the table did not load: %s\n%s", a.flash, a.View())
	}
	return a
}

// TestRulesScreens: the triage with a table loaded (a RULE column per
// group, resolved; '?' where the list lacks a field a rule tests), the
// message screen naming its rule, and a refused table's errors.
func TestRulesScreens(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		want []string
	}{
		{"rules_triage", []string{"d"}, []string{"#1 FWD ✗ → INVOICE.IN", "#2? RETRY ✗ → AUDIT.IN (QM2)",
			"rules: rule 1 (line 4): forward to INVOICE.IN (MQDLH removed): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085)"}},
		{"rules_message", []string{"d", "enter", "enter"}, []string{
			"rules table: rule 1 (line 4): forward to INVOICE.IN (MQDLH removed): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085)"}},
		{"rules_refused", typeCommand("rules testdata/rules/broken.rules"), []string{"refused: 2 errors", "2:35", "3:18", "still in use: testdata/rules/incident.rules"}},
		{"rules_show", typeCommand("rules"), []string{"#1", "line 4", "FWDQ(&DESTQ)"}},
		{"rules_write_dialog", []string{"d", "W"}, []string{"Write a runmqdlq rules table: 2 groups of 300 messages on QM1.DEADQ",
			"ACTION(FWD) FWDQ(&DESTQ) HEADER(NO)", "ACTION(RETRY) RETRY(3)", "file: /home/op/.local/state/poisonwatch/QM1-QM1.DEADQ-"}},
	}
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, tc := range cases {
			t.Run(tc.name+"_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
				a := rulesApp(t, size.w, size.h, Options{})
				press(a, tc.keys...)
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				golden(t, v)
				if size.w < 160 {
					return // the narrow screen cuts the long lines
				}
				for _, s := range tc.want {
					if !strings.Contains(v, s) {
						t.Errorf("screen lacks %q:\n%s", s, v)
					}
				}
			})
		}
	}
}

// TestRulesRefusedKeepsNothingNew: a table with errors is refused whole;
// with none loaded before, the triage shows no RULE column.
func TestRulesRefusedKeepsNothingNew(t *testing.T) {
	a, _ := newTestApp(t, 160, 48, Options{})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, typeCommand("rules testdata/rules/broken.rules")...)
	if a.sess.rules != nil {
		t.Fatal("a table with errors was loaded")
	}
	press(a, "esc", "d")
	if v := a.View(); strings.Contains(v, "RULE") || strings.Contains(v, "no rule") {
		t.Fatalf("the triage shows rules without a table:\n%s", v)
	}
	press(a, typeCommand("rules testdata/rules/no-such-file.rules")...)
	if v := a.View(); !strings.Contains(v, "cannot read rules table") {
		t.Fatalf("a missing file does not say so:\n%s", v)
	}
}

// TestRulesOffDropsTheColumn: ":rules off" forgets the table.
func TestRulesOffDropsTheColumn(t *testing.T) {
	a := rulesApp(t, 160, 48, Options{})
	press(a, "d")
	press(a, typeCommand("rules off")...)
	if v := a.View(); a.sess.rules != nil || strings.Contains(v, "#1 FWD") {
		t.Fatalf("rules off left the table (%v):\n%s", a.sess.rules != nil, v)
	}
}

// TestWriteRulesFromTriage: W, then enter in its dialog, writes a table of
// the DEADQ's groups to the export directory, each group with the loaded
// table's action, that parses and matches the groups it was made from; with
// groups marked, only those.
func TestWriteRulesFromTriage(t *testing.T) {
	dir := t.TempDir()
	a := rulesApp(t, 160, 48, Options{ExportDir: dir})
	press(a, "d", "W", "enter")
	tab := writtenTable(t, a, dir)
	if len(tab.Rules) != 2 || tab.Rules[0].Action != dlqrules.Fwd || tab.Rules[0].FwdQ != dlqrules.RefDestQ || tab.Rules[0].Header {
		t.Fatalf("written rules: %+v", tab.Rules)
	}
	if tab.Rules[1].Action != dlqrules.Retry || tab.Rules[1].Retry != 3 {
		t.Errorf("rule 2 does not carry the loaded table's RETRY(3): %s", tab.Rules[1].String())
	}
	s := dlqSummary(1, 2053, "AUDIT.IN")
	if m := tab.MatchSummary(&s); m.Rule != 1 || !m.Certain {
		t.Errorf("a 2053 AUDIT.IN message meets rule %d of the written table, want 2", m.Rule+1)
	}

	dir2 := t.TempDir()
	a.sess.exportDir = dir2
	press(a, "j", "space", "W", "enter") // mark the 2053 group only
	if tab := writtenTable(t, a, dir2); len(tab.Rules) != 1 || tab.Rules[0].Action != dlqrules.Retry {
		t.Fatalf("with one group marked, wrote %d rules", len(tab.Rules))
	}
}

func writtenTable(t *testing.T, a *App, dir string) *dlqrules.Table {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.rules"))
	if len(files) != 1 || !strings.Contains(a.flash, "written to "+files[0]) {
		t.Fatalf("files %v, status %q", files, a.flash)
	}
	tab, err := dlqrules.ParseFile(files[0])
	if err != nil {
		b, _ := os.ReadFile(files[0])
		t.Fatalf("the written table does not parse: %v\n%s", err, b)
	}
	return tab
}

// TestWriteRulesIsOffOffTheDeadQ: on a BOQ, W says why it does nothing, and
// help lists it on the DEADQ triage.
func TestWriteRulesIsOffOffTheDeadQ(t *testing.T) {
	a, _ := newTestApp(t, 160, 48, Options{})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "?")
	if v := a.View(); !strings.Contains(v, "write a runmqdlq rules table") {
		t.Fatalf("help on the DEADQ triage lacks W:\n%s", v)
	}
	press(a, "?")
	snap := incident(2, 300)
	snap.Inventories["PAYMENTS.BO"] = (*mqwatch.Inventory)(nil).Append(mqwatch.Summary{BackoutCount: 5, Length: 10})
	a.Update(snapshotMsg{snap: snap})
	press(a, typeCommand("q PAYMENTS.BO")...)
	if _, ok := a.top().(*triageScreen); !ok {
		t.Fatalf("PAYMENTS.BO opens on %T", a.top())
	}
	press(a, "W")
	if !strings.Contains(a.flash, "rules tables are for the dead-letter queue") {
		t.Fatalf("W on a BOQ: status %q", a.flash)
	}
}

// TestRuleLabelsAreSanitised: names taken from a message (FWDQ(&DESTQ))
// never reach the terminal raw.
func TestRuleLabelsAreSanitised(t *testing.T) {
	a, _ := newTestApp(t, 160, 48, Options{})
	snap := incident(1, 3)
	evil := dlqSummary(7, 2085, "EVIL\x1b[2J.Q")
	snap.Inventories["QM1.DEADQ"] = (*mqwatch.Inventory)(nil).Append(evil)
	a.Update(snapshotMsg{snap: snap})
	press(a, typeCommand("rules testdata/rules/incident.rules")...)
	press(a, "d")
	if v := a.View(); strings.Contains(v, "\x1b[2J") || !strings.Contains(v, "#1 FWD → EVIL") {
		t.Fatalf("the RULE column is raw or missing:\n%q", v)
	}
}

// TestWarRoomLoadsAndWritesNoFiles: remote viewers cannot make the host
// read or write a file.
func TestWarRoomLoadsAndWritesNoFiles(t *testing.T) {
	dir := t.TempDir()
	a, _ := newTestApp(t, 160, 48, Options{WarRoom: true, ExportDir: dir})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, typeCommand("rules testdata/rules/incident.rules")...)
	if a.sess.rules != nil || a.flash != warRoomNoFiles {
		t.Fatalf("war room: table loaded %v, status %q", a.sess.rules != nil, a.flash)
	}
	press(a, "d", "W")
	if files, _ := filepath.Glob(filepath.Join(dir, "*")); len(files) != 0 || a.flash != warRoomNoFiles {
		t.Fatalf("war room W: files %v, status %q", files, a.flash)
	}
}

// TestFlowRulesLoadTriageWrite runs the program: :rules loads the table,
// the DEADQ triage shows each group's rule, the message screen names it and
// what it would do once the message is read, and W's dialog writes a table
// to the export directory.
func TestFlowRulesLoadTriageWrite(t *testing.T) {
	dir := t.TempDir()
	f := startFlow(t, Options{ExportDir: dir, Rules: newEnginePredictor(t)})
	f.feed(incident(1, 300))
	f.waitFor("QM1.DEADQ")
	f.keys(typeCommand("rules testdata/rules/incident.rules")...)
	f.waitFor("rules table testdata/rules/incident.rules loaded: 2 rules")
	f.keys("d")
	f.waitFor("RULE", "#1 FWD ✗ → INVOICE.IN", "#2? RETRY ✗ → AUDIT.IN (QM2)")
	f.keys("enter", "enter")
	f.waitFor("rules table: rule 1 (line 4): forward to INVOICE.IN (MQDLH removed): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085)")
	f.keys("esc", "esc", "W")
	f.waitFor("Write a runmqdlq rules table: 2 groups of 300 messages")
	f.keys("enter")
	f.waitFor("rules table of 2 groups written to")
	a := f.quit()
	if files, _ := filepath.Glob(filepath.Join(dir, "QM1-QM1.DEADQ-*.rules")); len(files) != 1 || a.sess.rules == nil {
		t.Fatalf("written %v", files)
	}
}

// TestMessageScreenPredictsFromTheWholeMessage: rule 2 tests MSGTYPE, which
// a summary lacks, so the queue's prediction is not sure of it; once the
// message is read the screen asks for that message's verdict from all of
// its fields and says it without the doubt.
func TestMessageScreenPredictsFromTheWholeMessage(t *testing.T) {
	m := sampleMessage()
	d := mqfmt.NewDLH()
	d.Reason, d.DestQName, d.DestQMgrName, d.Format, d.Encoding, d.CodedCharSetId = 2053, "AUDIT.IN", "QM2", mqfmt.FmtString, mqfmt.EncodingNative, 1208
	bo, _ := mqfmt.EncodingNative.ByteOrder()
	m.Data = append(d.AppendEncode(nil, bo), "{}"...)
	m.Length = len(m.Data)
	p := newEnginePredictor(t)
	a := rulesApp(t, 160, 48, Options{Ops: &fakeOps{msg: m}, Rules: p})
	press(a, "d", "j")
	if v := a.View(); !strings.Contains(v, "tests fields the list does not hold") {
		t.Fatalf("the triage is sure of rule 2 from summaries:\n%s", v)
	}
	press(a, "enter", "enter")
	v := a.View()
	want := "rules table: rule 2 (line 5): retry to AUDIT.IN on QM2 (MQDLH removed): would be dead-lettered again: QM2 refused it with MQRC_Q_FULL"
	if !strings.Contains(v, want) || strings.Contains(v, "if the full message matches") || p.calls != 2 {
		t.Fatalf("message screen (%d predictions), want %q:\n%s", p.calls, want, v)
	}
}

// failingRules is a RulesOps whose queue manager is down.
type failingRules struct{}

func (failingRules) PredictRules(context.Context, string, string, *dlqrules.Table, []dlqrules.Subject) ([]dlqrules.Verdict, error) {
	return nil, mqwatch.NewError("MQCONN", "", mqfmt.RCQMgrNotAvailable)
}

func (failingRules) PredictQueue(context.Context, string, string, *dlqrules.Table, *mqwatch.Inventory) (*dlqrules.Verdicts, error) {
	return nil, mqwatch.NewError("MQCONN", "", mqfmt.RCQMgrNotAvailable)
}

// TestRulesPredictionFailureSaysWhy: when the prediction fails, the rule
// line names the rule and the MQ error with its reason code's name and what
// it means, instead of an outcome.
func TestRulesPredictionFailureSaysWhy(t *testing.T) {
	a := rulesApp(t, 200, 48, Options{Rules: failingRules{}})
	press(a, "d")
	v := a.View()
	want := "rules: rule 1 (line 4): cannot predict what it would do: MQCONN: MQRC_Q_MGR_NOT_AVAILABLE (2059)"
	if !strings.Contains(v, want) {
		t.Fatalf("rule line lacks %q:\n%s", want, v)
	}
}

package ui

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

type screenCase struct {
	name string
	keys []string
}

var screenCases = []screenCase{
	{"dashboard", nil},
	{"alerts_focused", []string{"tab"}},
	{"alerts_fix", []string{"tab", "j"}},
	{"dlq_triage", []string{"d"}},
	{"dlq_triage_by_appl", []string{"d", "o", "o", "o"}},
	{"dlq_group", []string{"d", "enter"}},
	{"message_dlh", []string{"d", "enter", "enter"}},
	{"message_mqmd", []string{"d", "enter", "enter", "l", "l", "l"}},
	{"message_body", []string{"d", "enter", "enter", "l"}},
	{"message_route", []string{"d", "enter", "enter", "l", "l"}},
	{"queue_input", []string{"j", "enter"}},
	{"filter", []string{"/", "p", "a", "y"}},
	{"palette", []string{":", "q", " ", "o", "r"}},
	{"help", []string{"?"}},
	{"requeue_dialog", []string{"d", "enter", "space", "space", "R"}},
	{"requeue_done", []string{"d", "enter", "space", "space", "R", "2", "enter"}},
	{"audit", []string{"d", "enter", "space", "space", "R", "2", "enter", "enter", "A"}},
	{"frozen", []string{"f"}},
	{"alert_detail", []string{"tab", "j", "enter"}},
	{"all_alerts", []string{"a"}},
	{"sorted_by_name", []string{"s", "s", "s"}},
	{"triage_marked", []string{"d", "space", "j", "ctrl+a"}},
	{"audit_run", []string{"d", "enter", "space", "space", "R", "2", "enter", "enter", "A", "enter"}},
}

// TestScreens renders every screen at 80x24 and 160x48 with the Ascii colour
// profile, which is what NO_COLOR gives: the goldens show that every state
// colour carries (severity, cursor, marks, focus, tab) reads without it.
func TestScreens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, tc := range screenCases {
			t.Run(tc.name+"_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
				a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fakeOps{msg: sampleMessage()}})
				a.Update(snapshotMsg{snap: incident(1, 300)})
				press(a, tc.keys...)
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				golden(t, v)
			})
		}
	}
}

func TestReadOnlyHidesAndRefusesActions(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops, ReadOnly: true})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "space", "R")
	if a.actionDialog() != nil {
		t.Fatal("read-only opened an action dialog")
	}
	v := a.View()
	if !strings.Contains(v, "[RO]") || strings.Contains(v, "requeue to original") {
		t.Fatalf("read-only screen shows actions or lacks the badge:\n%s", v)
	}
	press(a, "?")
	if strings.Contains(a.View(), "requeue to original") {
		t.Fatal("help lists disabled actions")
	}
}

func TestWarRoomMasksBodies(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Ops: &fakeOps{msg: sampleMessage()}, WarRoom: true})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "l")
	if v := a.View(); strings.Contains(v, "4711") || !strings.Contains(v, "masked") {
		t.Fatalf("body not masked in war-room:\n%s", v)
	}
	press(a, "v")
	if v := a.View(); !strings.Contains(v, "4711") {
		t.Fatalf("v did not reveal the body:\n%s", v)
	}
}

func TestFreezeHoldsSnapshots(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "f")
	a.Update(snapshotMsg{snap: incident(2, 60)})
	if got := a.current().Queues["QM1.DEADQ"].View.Status.Depth; got != 30 {
		t.Fatalf("frozen screen moved: depth %d", got)
	}
	press(a, "f")
	if got := a.current().Queues["QM1.DEADQ"].View.Status.Depth; got != 60 {
		t.Fatalf("resume did not apply the held snapshot: depth %d", got)
	}
}

func TestCursorSurvivesSnapshots(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "enter", "j", "j", "j", "space")
	a.Update(snapshotMsg{snap: incident(2, 330)})
	if topIs[*queueScreen](t, a).grid.Cursor != 4 || a.sess.marks.Len() != 1 {
		t.Fatalf("cursor %d marks %d after a snapshot", topIs[*queueScreen](t, a).grid.Cursor, a.sess.marks.Len())
	}
}

func TestResizeKeepsFrame(t *testing.T) {
	a, _ := newTestApp(t, 200, 60, Options{})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	for _, sz := range [][2]int{{200, 60}, {80, 24}, {100, 30}, {40, 10}} {
		a.Update(windowSize(sz[0], sz[1]))
		checkFrame(t, a.View(), sz[0], sz[1])
	}
	if v := a.View(); !strings.Contains(v, "needs at least") {
		t.Fatalf("tiny terminal not told the size it needs:\n%s", v)
	}
}

func TestRequeueActsOnMarkedMessagesOnly(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, src := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "enter", "space", "space", "R", "2", "enter")
	if len(ops.runs) != 1 || len(ops.runs[0].Messages) != 2 {
		t.Fatalf("runs %+v", ops.runs)
	}
	if len(src.forgot) != 2 || src.refresh == 0 {
		t.Fatalf("watcher not told: forgot %d refresh %d", len(src.forgot), src.refresh)
	}
}

func TestBulkNeedsTypedCount(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "enter", "space", "space", "R", "tab", "enter")
	if len(ops.runs) != 0 {
		t.Fatal("bulk action ran without the typed count")
	}
	press(a, "esc")
	if a.actionDialog() != nil {
		t.Fatal("esc did not close the dialog")
	}
	press(a, "R", "enter")
	if len(ops.runs) != 0 || a.actionDialog() != nil {
		t.Fatal("enter on the focused Cancel must cancel")
	}
}

func TestMessageBytesAreSanitised(t *testing.T) {
	m := sampleMessage()
	m.MD.PutApplName = "evil\x1b[31mapp\x07"
	a, _ := newTestApp(t, 120, 35, Options{Ops: &fakeOps{msg: m}})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "l", "l", "l")
	if v := a.View(); strings.ContainsAny(v, "\x1b\x07") {
		t.Fatalf("control bytes reached the screen: %q", v)
	}
}

func TestExportAsksForAFileAndWorksReadOnly(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops, ReadOnly: true})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "space", "E")
	if a.actionDialog() == nil || !strings.Contains(a.View(), "export to dmpmqmsg file: /home/op/.local/state/poisonwatch/export-QM1-QM1.DEADQ-") {
		t.Fatalf("no export dialog:\n%s", a.View())
	}
	press(a, "enter", "enter")
	if len(ops.runs) != 1 || ops.runs[0].Op != "export" || !strings.HasSuffix(ops.runs[0].File, ".dmp") {
		t.Fatalf("runs %+v", ops.runs)
	}
}

func TestCursorFollowsItsMessageWhenTheHeadIsTaken(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "tab", "j", "j", "j", "j", "j")
	want := topIs[*queueScreen](t, a).selected().Key()
	next := incident(2, 300)
	next.Inventories["QM1.DEADQ"] = next.Inventories["QM1.DEADQ"].DropHead(3) // a consumer took three
	next.Deltas = map[string]mqwatch.InventoryDelta{"QM1.DEADQ": {Resync: true}}
	a.Update(snapshotMsg{snap: next})
	if got := topIs[*queueScreen](t, a).selected(); got == nil || got.Key() != want || topIs[*queueScreen](t, a).grid.Cursor != 2 {
		t.Fatalf("cursor moved off its message: row %d", topIs[*queueScreen](t, a).grid.Cursor)
	}
}

func TestMessageScreenActsOnTheMessageShown(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 120, 35, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "space", "space", "space", "enter", "R", "tab", "enter")
	if len(ops.runs) != 1 || len(ops.runs[0].Messages) != 1 || ops.runs[0].Messages[0].Key() != under[*detailScreen](t, a).sum.Key() {
		t.Fatalf("runs %+v", ops.runs)
	}
}

func TestHeaderBytesNeverReachTheTerminalThroughLabels(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	snap := incident(1, 0)
	evil := dlqSummary(1, 2085, "INVOICE.IN")
	evil.DLHPutAppl = "evil\x1b]52;c;QUJD\x07app"
	snap.Inventories["QM1.DEADQ"] = (*mqwatch.Inventory)(nil).Append(evil)
	a.Update(snapshotMsg{snap: snap})
	for _, keys := range [][]string{{"d", "o", "o", "o"}, {"enter"}, {"esc", "space"}} {
		press(a, keys...)
		if v := a.View(); strings.ContainsAny(v, "\x1b\x07") {
			t.Fatalf("after %v a control byte reached the screen: %q", keys, v)
		}
	}
}

// TestDialogCountFocusesRunAndSaysWhyRunIsOff: the count is a dim hint, not
// typed text; a wrong count says why Run is off; the right one moves the
// focus to Run, so enter runs.
func TestDialogCountFocusesRunAndSaysWhyRunIsOff(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 80, 24, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "enter", "space", "space", "R")
	v := a.View()
	if !strings.Contains(v, "(type 2 to confirm)") || !strings.Contains(v, "[ Cancel ]") || !strings.Contains(v, "Run is off: type 2 to confirm") {
		t.Fatalf("dialog does not show the hint, the focused Cancel and why Run is off:\n%s", v)
	}
	press(a, "3", "tab", "enter")
	if len(ops.runs) != 0 || !strings.Contains(a.View(), "you typed 3, 2 message(s) would be acted on") {
		t.Fatalf("a wrong count ran or did not say why:\n%s", a.View())
	}
	press(a, "backspace", "tab")
	press(a, "2")
	if !a.actionDialog().onRun || !strings.Contains(a.View(), "[ Run ]") {
		t.Fatalf("typing the count did not focus Run:\n%s", a.View())
	}
	press(a, "enter")
	if len(ops.runs) != 1 {
		t.Fatal("enter on Run after the count did not run")
	}
}

// TestDialogCountIsWhatWouldBeActedOn: messages the dry run says would fail
// are not confirmed by typing their number; the count is the breakdown's,
// and when it is one message y confirms it (nothing to type).
func TestDialogCountIsWhatWouldBeActedOn(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage(), failFirst: 1}
	a, _ := newTestApp(t, 80, 24, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "enter", "space", "space", "R")
	if v := a.View(); !strings.Contains(v, "y confirms: one message") || !strings.Contains(v, "target missing") {
		t.Fatalf("the count to confirm is not the breakdown's, or the failure is not shown:\n%s", v)
	}
	press(a, "2", "tab", "enter")
	if len(ops.runs) != 0 || !strings.Contains(a.View(), "Run is off: press y to confirm") {
		t.Fatalf("typing the selection's size (2) ran although only 1 would be acted on:\n%s", a.View())
	}
	press(a, "y")
	if len(ops.runs) != 1 {
		t.Fatalf("y did not run:\n%s", a.View())
	}
	for _, want := range []string{"failed 1", "failed: target missing", "requeued"} {
		if v := a.View(); !strings.Contains(v, want) {
			t.Fatalf("the result does not list %q:\n%s", want, v)
		}
	}
}

// TestWarRoomMasksUserPropertiesNotRouting: war-room masks the body and the
// usr folder (user properties carry business data); the jms and mcd folders
// say where a message goes and stay readable, as in the queue list.
func TestWarRoomMasksUserPropertiesNotRouting(t *testing.T) {
	md := mqfmt.NewMQMD()
	md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtRFH2, mqfmt.EncodingNative, 1208
	r := mqfmt.NewRFH2(mqfmt.EncodingNative, 1208, mqfmt.FmtString,
		mqfmt.NewFolder("jms", mqfmt.NewElement("Dst", "queue:///ORDERS.IN")),
		mqfmt.NewFolder("usr", mqfmt.NewElement("customer", "ACME-4711")))
	bo, _ := mqfmt.EncodingNative.ByteOrder()
	data, err := r.AppendEncode(nil, bo)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "secret body"...)
	a, _ := newTestApp(t, 120, 35, Options{Ops: &fakeOps{msg: mqwatch.Message{MD: md, Data: data, Length: len(data)}}, WarRoom: true})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "l", "l", "l", "l") // DLH → Body → Route → MQMD → RFH2
	v := a.View()
	if strings.Contains(v, "ACME-4711") || !strings.Contains(v, "queue:///ORDERS.IN") || !strings.Contains(v, "[masked]") {
		t.Fatalf("war-room RFH2 tab: user property shown or routing masked:\n%s", v)
	}
	press(a, "h", "h") // Body
	if strings.Contains(a.View(), "secret body") {
		t.Fatalf("war-room body shown:\n%s", a.View())
	}
}

// TestReadOnlyActionKeyFlashes: in read-only mode an action key says why it
// does nothing, at 80x24 without colour.
func TestReadOnlyActionKeyFlashes(t *testing.T) {
	a, _ := newTestApp(t, 80, 24, Options{Ops: &fakeOps{msg: sampleMessage()}, ReadOnly: true})
	a.Update(snapshotMsg{snap: incident(1, 300)})
	press(a, "d", "enter", "R")
	v := a.View()
	checkFrame(t, v, 80, 24)
	golden(t, v)
	if a.actionDialog() != nil || !strings.Contains(v, "read-only: actions are off") {
		t.Fatalf("R in read-only mode: dialog %v, screen:\n%s", a.actionDialog() != nil, v)
	}
}

// TestInquireFailureShowsPerQueue: a poll whose inquiry failed for one queue
// (2101 damaged, deleted mid-command) marks that row stale with the reason
// code and says why on its queue screen; the other rows stay current.
func TestInquireFailureShowsPerQueue(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	snap := incident(1, 30)
	snap.Queues[3].InquireErr = &mqwatch.Error{Verb: "MQCMD_INQUIRE_Q_STATUS", Object: "PAYMENTS.IN", CC: 2, RC: 2101}
	a.Update(snapshotMsg{snap: snap})
	v := a.View()
	if !strings.Contains(v, "stale 2101") || strings.Count(v, "stale ") != 1 {
		t.Fatalf("the dashboard does not mark exactly PAYMENTS.IN stale:\n%s", v)
	}
	press(a, ":", "q", " ", "P", "A", "Y", "M", "E", "N", "T", "S", ".", "I", "N", "enter")
	if v := a.View(); !strings.Contains(v, "stale: MQRC_OBJECT_DAMAGED (2101)") {
		t.Fatalf("the queue screen does not say why it is stale:\n%s", v)
	}
}

// TestInquireFailureWithoutRowIsShown: an object whose inquiry failed and
// that no row shows (a queue never seen before) is named on the dashboard
// with its reason, not dropped.
func TestInquireFailureWithoutRowIsShown(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	snap := incident(1, 30)
	snap.ObjectErrs = []mqwatch.ObjectError{
		{Object: "NEW.Q", Err: &mqwatch.Error{Verb: "MQCMD_INQUIRE_Q", Object: "NEW.Q", CC: 2, RC: 2035}},
		{Object: "ORDERS.IN", Err: &mqwatch.Error{Verb: "MQCMD_INQUIRE_Q", Object: "ORDERS.IN", CC: 2, RC: 2101}},
	}
	a.Update(snapshotMsg{snap: snap})
	v := a.View()
	if !strings.Contains(v, "not inquired: NEW.Q MQRC_NOT_AUTHORIZED (2035)") || strings.Contains(v, "not inquired: ORDERS.IN") {
		t.Fatalf("the dashboard does not name exactly the unlisted object:\n%s", v)
	}
}

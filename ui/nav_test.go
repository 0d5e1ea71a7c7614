package ui

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestMessageTabScrollsToTheEndAndWithTheWheel: the message tabs are a
// viewport: G jumps to the last line, g back, the wheel scrolls.
func TestMessageTabScrollsToTheEndAndWithTheWheel(t *testing.T) {
	a, _ := newTestApp(t, 80, 16, Options{Ops: &fakeOps{msg: sampleMessage()}})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "l", "l", "l") // MQMD: longer than the screen
	d := topIs[*detailScreen](t, a)
	if d.vp.AtBottom() {
		t.Fatal("MQMD fits the screen: the test needs it to scroll")
	}
	press(a, "G")
	if !d.vp.AtBottom() || !strings.Contains(a.View(), "Length") {
		t.Fatalf("G did not reach the last line:\n%s", a.View())
	}
	press(a, "g")
	a.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown})
	if d.vp.YOffset != 3 {
		t.Fatalf("the wheel scrolled to line %d, want 3", d.vp.YOffset)
	}
}

// TestSortCyclesAndSays: s cycles the queue table's order and the title
// says which; severity puts the queues with critical alerts first.
// TestSortCyclesAndSays: the table starts by severity (with a thousand
// queues, a name order hides the alerting ones off screen), s cycles risk,
// fill, name and back.
func TestSortCyclesAndSays(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	d := topIs[*dashboard](t, a)
	if !strings.Contains(a.View(), "Queues by severity") || queueLevel(d.rows[len(d.rows)-1]) == 2 {
		t.Fatalf("the table does not start by severity:\n%s", a.View())
	}
	press(a, "s", "s", "s")
	if !strings.Contains(a.View(), "Queues by name") {
		t.Fatalf("three s did not reach the name order:\n%s", a.View())
	}
	press(a, "s")
	if !strings.Contains(a.View(), "Queues by severity") {
		t.Fatalf("four s did not come back to severity:\n%s", a.View())
	}
}

// TestAlertingQueuesLeadAThousandQueueDashboard: 1,000 healthy queues named
// before the one in trouble; at 80x24 the alerting queue is the first row.
func TestAlertingQueuesLeadAThousandQueueDashboard(t *testing.T) {
	a, _ := newTestApp(t, 80, 24, Options{})
	snap := incident(1, 30)
	for i := range 1000 {
		snap.Queues = append(snap.Queues, view(fmt.Sprintf("AAA.%04d", i), 0, 5000, 0, "", mqwatch.RoleInput, 0))
	}
	slices.SortFunc(snap.Queues, func(x, y mqwatch.QueueView) int { return strings.Compare(x.Info.Name, y.Info.Name) })
	a.Update(snapshotMsg{snap: snap})
	d := topIs[*dashboard](t, a)
	first := d.rows[0].View.Info.Name
	worst := 0
	for _, al := range d.q.Alerts {
		if al.Queue == first {
			worst = max(worst, int(al.Severity)+1)
		}
	}
	if worst == 0 || !strings.Contains(a.View(), first) {
		t.Fatalf("the first row, %s, has no alert:\n%s", first, a.View())
	}
}

// TestSwitchingQueueManagerStartsAtTheTop: after :qm the table starts at the
// top, not at the row the other queue manager's cursor was on.
func TestSwitchingQueueManagerStartsAtTheTop(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "G")
	a.SwitchQMgr("QM1")
	if c := topIs[*dashboard](t, a).grid.Cursor; c != 0 {
		t.Fatalf("cursor on row %d after switching", c)
	}
}

// TestWarmUpSaysSoThenPollsAtOnce: while the demo simulates its history the
// header says so and no queue manager reads stale; when it is done every
// source polls at once.
func TestWarmUpSaysSoThenPollsAtOnce(t *testing.T) {
	warm := make(chan struct{})
	a, src := newTestApp(t, 120, 35, Options{Warming: warm})
	a.Init()
	snap := incident(1, 30)
	snap.Time = clock.Add(-15 * 60 * 1e9) // from the simulated past
	a.Update(snapshotMsg{snap: snap})
	// Alerts of a half-made history are not counted ("⚠ 0 crit" misled).
	if v := a.View(); !strings.Contains(v, "filling in history") || strings.Contains(v, "stale") ||
		!strings.Contains(v, "alerts starting") || strings.Contains(v, "crit") {
		t.Fatalf("warming header:\n%s", v)
	}
	press(a, "m")
	if v := a.View(); !strings.Contains(v, "● starting") || strings.Contains(v, "● held") {
		t.Fatalf("warming fleet view:\n%s", v)
	}
	press(a, "esc")
	close(warm)
	a.Update(warmedMsg{})
	if v := a.View(); src.refresh != 1 || strings.Contains(v, "filling in history") || !strings.Contains(v, "⚠ 3 crit") {
		t.Fatalf("after the warm-up: %d refreshes\n%s", src.refresh, v)
	}
}

// TestCopyTakesTheWholeMsgId: the list shows a MsgId's tail after "…", y
// copies all 48 hex digits.
func TestCopyTakesTheWholeMsgId(t *testing.T) {
	var out bytes.Buffer
	a, _ := newTestApp(t, 80, 24, Options{})
	a.opt.Renderer = lipgloss.NewRenderer(&out)
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "j", "y")
	s := topIs[*queueScreen](t, a)
	want := msgIDHex(s.selected().MsgId)
	got := out.String()
	i := strings.Index(got, ";c;")
	if i < 0 || !strings.HasSuffix(got, "\a") {
		t.Fatalf("no OSC 52 sequence: %q", got)
	}
	dec, err := base64.StdEncoding.DecodeString(got[i+3 : len(got)-1])
	if err != nil || string(dec) != want || len(dec) != 48 {
		t.Fatalf("copied %q, want the 48 hex digits %s", dec, want)
	}
	if v := a.View(); !strings.Contains(v, "…"+want[len(want)-11:]) || !strings.Contains(v, "copied MsgId ") {
		t.Fatalf("the list does not show the cut with … or the flash lacks the id:\n%s", v)
	}
}

// TestKeysThatArriveTogetherEachCount: a terminal or an SSH link may deliver
// several keystrokes in one read ("jjj"); each one acts, as if typed apart,
// and a key that opens an input hands the rest to it.
func TestKeysThatArriveTogetherEachCount(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "jjj")
	if c := topIs[*dashboard](t, a).grid.Cursor; c != 3 {
		t.Fatalf(`"jjj" in one read left the cursor on row %d, want 3`, c)
	}
	press(a, "/ORD")
	if !a.filter.active || *filterOf(a.top()) != "ORD" {
		t.Fatalf(`"/ORD" in one read: filter active %v, text %q`, a.filter.active, *filterOf(a.top()))
	}
}

// TestEscapesThatArriveTogetherEachGoBack: Bubble Tea reads "\x1b\x1b" as
// alt+esc and "\x1b\x1b\x1b" as alt+esc, esc; each escape goes back one
// step, as pressed one by one.
func TestEscapesThatArriveTogetherEachGoBack(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	send := func(ks ...tea.KeyMsg) {
		for _, k := range ks {
			_, cmd := a.Update(k)
			drain(a, cmd)
		}
	}
	altEsc, esc := tea.KeyMsg{Type: tea.KeyEsc, Alt: true}, tea.KeyMsg{Type: tea.KeyEsc}

	press(a, "a", "A") // the alerts, then the audit, above the dashboard
	send(altEsc)
	if n := len(a.stack); n != 1 {
		t.Fatalf("two escapes in one read: %d screens left, want the dashboard alone", n)
	}
	// Three: two screens back, then the dashboard's filter cleared.
	press(a, "/", "O", "R", "D", "enter", "a", "A")
	send(altEsc, esc)
	if n, f := len(a.stack), *filterOf(a.top()); n != 1 || f != "" {
		t.Fatalf("three escapes in one read: %d screens left, filter %q; want the dashboard, unfiltered", n, f)
	}
}

// TestAScreenIsNotStackedOnItself: a second a (all alerts) or A (audit)
// leaves one such screen on the stack, so one esc goes back.
func TestAScreenIsNotStackedOnItself(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	for _, k := range []string{"a", "A"} {
		press(a, k, k)
		if n := len(a.stack); n != 2 {
			t.Fatalf("%s twice: %d screens on the stack, want 2", k, n)
		}
		press(a, "esc")
	}
}

// TestEnterOnAnAlertsQueueAndBack: enter on an alert's queue opens it above
// the alert, and esc comes back to the alert.
func TestEnterOnAnAlertsQueueAndBack(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "tab", "enter")
	al := topIs[*alertScreen](t, a)
	press(a, "enter")
	if loc := a.top().location(); loc.Queue != al.al.Queue {
		t.Fatalf("enter on the alert of %s opened %+v", al.al.Queue, loc)
	}
	press(a, "esc")
	topIs[*alertScreen](t, a)
}

// TestMessageScreenSaysItsMessageIsGone: after a run removed the message on
// view, the message screen says so and its action keys say why they are off.
func TestMessageScreenSaysItsMessageIsGone(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	a, _ := newTestApp(t, 80, 24, Options{Ops: ops})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "R", "tab", "enter")
	if len(ops.runs) != 1 {
		t.Fatalf("R, tab, enter did not run:\n%s", a.View())
	}
	press(a, "esc")
	d := topIs[*detailScreen](t, a)
	v := a.View()
	checkFrame(t, v, 80, 24)
	if d.gone == "" || !strings.Contains(v, "GONE: requeued to INVOICE.IN by your run (shown as last read)") {
		t.Fatalf("the message screen after its message was requeued:\n%s", v)
	}
	press(a, "D")
	if a.actionDialog() != nil || !strings.Contains(a.View(), "no longer on QM1.DEADQ") {
		t.Fatalf("D on a gone message:\n%s", a.View())
	}
}

// TestHelpListsEveryKeyAt80x24: on every screen, ? shows each key that
// works there with its description, uncut, at 80 columns.
func TestHelpListsEveryKeyAt80x24(t *testing.T) {
	ops := &fakeOps{msg: sampleMessage()}
	paths := map[string][]string{
		"dashboard": nil, "queue": {"j", "j", "enter"}, "triage": {"d"}, "group": {"d", "enter"},
		"message": {"d", "enter", "enter"}, "alert": {"tab", "enter"}, "alerts": {"a"}, "audit": {"A"},
	}
	for name, keys := range paths {
		a, _ := newTestApp(t, 80, 24, Options{Ops: ops})
		a.Update(snapshotMsg{snap: incident(1, 30)})
		press(a, keys...)
		taken := map[string]bool{}
		want := append(listed(a.top().bindings(a), taken, false), listed(a.globalBindings(), taken, false)...)
		press(a, "?")
		v := ansi.Strip(a.View())
		checkFrame(t, a.View(), 80, 24)
		for _, k := range want {
			if !strings.Contains(v, k.Help().Key) || !strings.Contains(v, k.Help().Desc) {
				t.Errorf("%s: help at 80x24 lacks %q %q:\n%s", name, k.Help().Key, k.Help().Desc, v)
			}
		}
		if strings.Contains(v, "…") {
			t.Errorf("%s: help at 80x24 cuts something:\n%s", name, v)
		}
	}
}

// TestALongFlashIsNotCutAt80Columns: a flash too long for the breadcrumb
// line (a colleague's run and its targets) takes the footer's width.
func TestALongFlashIsNotCutAt80Columns(t *testing.T) {
	a, _ := newTestApp(t, 80, 24, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	a.flash = "alice requeued 37 messages from QM1.DEADQ → ORDERS.IN ×30, PAYMENTS.IN ×7"
	v := a.View()
	checkFrame(t, v, 80, 24)
	if !strings.Contains(ansi.Strip(v), a.flash) {
		t.Fatalf("the flash is cut:\n%s", v)
	}
}

// TestTrendsSayWhatDoesNotFit: when the DEADQ and BOQ pane has fewer rows
// than queues, its last row names the ones left out.
func TestTrendsSayWhatDoesNotFit(t *testing.T) {
	a, _ := newTestApp(t, 80, 24, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	v := ansi.Strip(topIs[*dashboard](t, a).trendsView(a, 80, 3))
	if !strings.Contains(v, "DEADQ and BOQs (3)") || !strings.Contains(v, "+2 more: ORDERS.BO, PAYMENTS.BO") {
		t.Fatalf("three queues in two rows:\n%s", v)
	}
}

// TestAlertPaneStartsAtTheMostSevereUntilFocused: an alerts pane nobody is
// reading follows the list's top, so tab lands on the most severe alert;
// once focused, its cursor stays on its alert across polls.
func TestAlertPaneStartsAtTheMostSevereUntilFocused(t *testing.T) {
	var p alertPane
	p.resize(80, 10)
	list := []model.Alert{{Rule: "R8b", Queue: "A"}, {Rule: "R1c", Queue: "B"}, {Rule: "R2c", Queue: "C"}}
	p.set(list)
	p.cursor = 2
	p.set(append([]model.Alert{{Rule: "R8c", Queue: "D"}}, list...))
	if p.cursor != 0 {
		t.Fatalf("unfocused pane's cursor on %d after a new list, want 0", p.cursor)
	}
	p.focused, p.cursor = true, 2
	p.set(append([]model.Alert{{Rule: "R4f", Queue: "E"}}, p.list...))
	if got := p.list[p.cursor].Queue; got != "B" {
		t.Fatalf("focused pane's cursor moved to %s, want it on B", got)
	}
}

// TestExportSaysWhereTheFileWentAt80Columns: a path wider than the terminal
// is shown whole, wrapped at its slashes, in the dialog and its result.
func TestExportSaysWhereTheFileWentAt80Columns(t *testing.T) {
	dir := "/var/mqm/poisonwatch/state/incident-2026-12-01/exports/queue-manager-QM1"
	a, _ := newTestApp(t, 80, 24, Options{Ops: &fakeOps{msg: sampleMessage()}, ExportDir: dir})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter", "enter", "E")
	path := a.actionDialog().typed.Value()
	joined := func() string {
		var b strings.Builder
		for _, l := range strings.Split(ansi.Strip(a.View()), "\n") {
			b.WriteString(strings.TrimSpace(l))
		}
		return b.String()
	}
	checkFrame(t, a.View(), 80, 24)
	if !strings.Contains(joined(), "in full: "+path) {
		t.Fatalf("the dialog does not show %s whole:\n%s", path, a.View())
	}
	press(a, "enter", "enter")
	if !strings.Contains(joined(), "exported to "+path) {
		t.Fatalf("the result does not say %s whole:\n%s", path, a.View())
	}
}

// TestHeaderKeepsEveryQueueManagersAlertsAt80Columns: with the demo's three
// queue managers at 80 columns the header drops healthy data ages before
// any queue manager's alert count.
func TestHeaderKeepsEveryQueueManagersAlertsAt80Columns(t *testing.T) {
	rounds, err := demoPolls()
	if err != nil {
		t.Fatal(err)
	}
	a := newDemoApp(t, rounds[0], Options{})
	a.Update(windowSize(80, 24))
	head := ansi.Strip(strings.Split(a.View(), "\n")[0])
	for _, qm := range []string{"QM2", "QM3"} {
		c, w := alertCounts(a.opt.Now(), a.state.QMgrs[qm])
		if want := fmt.Sprintf("%s ● ⚠%d/%d", qm, c, w); c+w > 0 && !strings.Contains(head, want) {
			t.Errorf("header %q lacks %q", head, want)
		}
	}
}

// TestFilterAndSortFollowTheFocusedPane: with the alerts pane focused, /
// filters the alerts (not the queue table behind them) and says when none
// matches; s says why it does not sort them. An empty queue table says
// that its filter matched nothing.
func TestFilterAndSortFollowTheFocusedPane(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	d := topIs[*dashboard](t, a)
	all, rows := len(d.alerts.list), len(d.rows)
	press(a, "tab", "s")
	if !strings.Contains(a.View(), "the alerts are listed most severe first; s sorts the queue table (tab to it)") {
		t.Errorf("s on the alerts pane says nothing:\n%s", a.View())
	}
	press(a, "/", "P", "A", "Y", "enter")
	if len(d.rows) != rows || d.text != "" {
		t.Fatalf("/ on the alerts pane filtered the queue table: %d rows of %d, filter %q", len(d.rows), rows, d.text)
	}
	if n := len(d.alerts.list); n == 0 || n >= all {
		t.Fatalf("/PAY left %d alerts of %d", n, all)
	}
	for _, al := range d.alerts.list {
		if !strings.Contains(al.Queue+al.Text, "PAY") {
			t.Errorf("/PAY kept %s: %s", al.Queue, al.Text)
		}
	}
	press(a, "/", "Z", "Z", "Z", "enter")
	if v := a.View(); !strings.Contains(v, "no alert matches /PAYZZZ") || strings.Contains(v, "no alerts: nothing is looping") {
		t.Errorf("an alert filter that matches nothing:\n%s", v)
	}
	press(a, "esc")
	if len(d.alerts.list) != all {
		t.Errorf("esc left %d alerts of %d", len(d.alerts.list), all)
	}
	press(a, "tab", "/", "Z", "Q", "X", "enter")
	if v := a.View(); len(d.rows) != 0 || !strings.Contains(v, "no queue matches /ZQX") {
		t.Errorf("a queue filter that matches nothing:\n%s", v)
	}
}

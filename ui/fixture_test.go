package ui

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/aymanbagabas/go-udiff"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/themes"
)

// updating reports whether -update was given; teatest's golden helper
// defines the flag, so the fixture reads it rather than defining it again.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

var clock = time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)

// fakeSource is a watcher stand-in that the test feeds by hand.
type fakeSource struct {
	name    string
	ch      chan *mqwatch.Snapshot
	focus   string
	forgot  []mqwatch.Key
	refresh int
}

func (f *fakeSource) Name() string                        { return f.name }
func (f *fakeSource) Snapshots() <-chan *mqwatch.Snapshot { return f.ch }
func (f *fakeSource) Refresh()                            { f.refresh++ }
func (f *fakeSource) SetFocus(q string)                   { f.focus = q }
func (f *fakeSource) Forget(_ string, k ...mqwatch.Key)   { f.forgot = append(f.forgot, k...) }

// fakeOps answers fetches from a fixed message and runs actions by recording
// them; the engine itself is tested in actions on the embedded queue manager.
type fakeOps struct {
	msg  mqwatch.Message
	runs []ops.OpRequest
	// failFirst makes the dry run say the first n messages would fail
	// (target missing), as the engine's plan does for a 2085 group.
	failFirst int
	warn      string // a warning the dry run gives
	// comeBack makes the dry run say the first n messages would come back
	// (R10f), and the run's check see them back.
	comeBack int
}

func (o *fakeOps) Fetch(context.Context, string, string, mqwatch.Summary) (mqwatch.Message, error) {
	return o.msg, nil
}

func (o *fakeOps) Plan(_ context.Context, r ops.OpRequest) (ops.OpPlan, error) {
	p := ops.OpPlan{Request: r, Targets: map[string]int{}}
	for i, m := range r.Messages {
		it := ops.OpItem{Msg: m, Target: cmp.Or(r.Target, m.DLHDestQ), Kind: ops.WouldAct}
		if i < o.failFirst {
			it.Kind, it.Detail, it.Reason = ops.WouldFail, "target missing", 2085
		}
		if i < o.comeBack {
			it.Kind, it.Detail, it.Reason = ops.WouldComeBack, "consumer of ORDERS.EXPRESS.IN (sync-transacted) dead-letters them while ORDERS.BO is full (40/40)", 2053
		}
		p.Items = append(p.Items, it)
		p.Targets[it.Target]++
	}
	p.Summary = fmt.Sprintf("Requeue %d messages from %s to their original queues; move, not copy; MQDLH removed", len(r.Messages), r.Queue)
	if r.Op == ops.OpMove { // as the engine says it: a move keeps the headers
		p.Summary = fmt.Sprintf("Move %d messages from %s to %s; move, not copy; headers unchanged", len(r.Messages), r.Queue, r.Target)
	}
	if o.warn != "" {
		p.Warnings = []string{o.warn}
	}
	if n := min(o.comeBack, len(r.Messages)); n > 0 { // as the engine sums them up, one warning per cause
		p.Warnings = append(p.Warnings, fmt.Sprintf("would come back: %d (consumer of ORDERS.EXPRESS.IN (sync-transacted) dead-letters them while ORDERS.BO is full (40/40))", n))
	}
	return p, nil
}

func (o *fakeOps) Run(ctx context.Context, r ops.OpRequest, progress func(ops.OpProgress)) (ops.OpResult, error) {
	o.runs = append(o.runs, r)
	p, _ := o.Plan(ctx, r)
	res := ops.OpResult{Plan: p, Done: len(r.Messages), AuditFile: "/home/op/.local/state/poisonwatch/audit.jsonl"}
	for _, it := range p.Items {
		if it.Kind == ops.WouldFail {
			it.Kind = ops.Failed
			res.Done--
			res.Failed++
		} else {
			it.Kind = ops.Done
		}
		res.Items = append(res.Items, it)
	}
	if o.comeBack > 0 {
		res.Verify = &ops.OpVerify{Window: r.Verify, Watched: res.Done, CameBack: o.comeBack, Within: 4 * time.Second,
			Where: r.Queue, Started: clock, Causes: []ops.OpCount{{Cause: "2053: ORDERS.BO full (40/40)", Count: o.comeBack}}}
	}
	progress(ops.OpProgress{Done: len(r.Messages), Total: len(r.Messages)})
	return res, nil
}

func dlqSummary(i int, reason int32, dest string) mqwatch.Summary {
	s := mqwatch.Summary{HasDLH: true, DLHReason: reason, DLHDestQ: dest, DLHDestQMgr: "QM2", DLHPutAppl: "amqrmppa",
		PutTime: clock.Add(-time.Duration(i+60) * time.Second), Length: 210, Format: "MQDEAD", BodyFormat: "MQSTR", Persistent: true}
	copy(s.MsgId[:], "AMQ QM1         ")
	s.MsgId[20], s.MsgId[21] = byte(i>>8), byte(i)
	return s
}

func view(name string, depth, max, bothresh int32, boq string, role mqwatch.Role, in int32) mqwatch.QueueView {
	return mqwatch.QueueView{Role: role, HasStatus: true,
		Info:   mqwatch.QueueInfo{Name: name, Type: mqwatch.QLocal, MaxDepth: max, MaxMsgLen: 4194304, BackoutThresh: bothresh, BackoutQName: boq},
		Status: mqwatch.QueueStatus{Name: name, Depth: depth, OpenInput: in, Monitored: true, OldestAge: 90 * time.Second, LastGet: clock.Add(-2 * time.Second)}}
}

// incident builds the snapshot of scenarios 1, 2 and 4: a poison loop, stuck
// poison under an MQI consumer, and a DEADQ burst.
func incident(seq uint64, dlq int) *mqwatch.Snapshot {
	var sums []mqwatch.Summary
	for i := 0; i < dlq; i++ {
		if i%30 == 29 {
			sums = append(sums, dlqSummary(i, 2053, "AUDIT.IN"))
		} else {
			sums = append(sums, dlqSummary(i, 2085, "INVOICE.IN"))
		}
	}
	inv := (*mqwatch.Inventory)(nil).Append(sums...)
	head := func(bc int32) []mqwatch.Summary {
		s := mqwatch.Summary{BackoutCount: bc, PutTime: clock.Add(-5 * time.Minute), Length: 64, Format: "MQSTR", BodyFormat: "MQSTR"}
		s.MsgId[23] = byte(bc)
		return []mqwatch.Summary{s}
	}
	return &mqwatch.Snapshot{Seq: seq, Time: clock, QMgrName: "QM1", Connected: true,
		QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ", MaxMsgLen: 104857600},
		Queues: []mqwatch.QueueView{
			view("ORDERS.BO", 100, 100, 0, "", mqwatch.RoleBOQ, 0),
			view("ORDERS.IN", 9000, 10000, 0, "", mqwatch.RoleInput, 4),
			view("PAYMENTS.BO", 3, 5000, 0, "", mqwatch.RoleBOQ, 0),
			view("PAYMENTS.IN", 40, 5000, 5, "PAYMENTS.BO", mqwatch.RoleInput, 1),
			view("QM1.DEADQ", int32(dlq), 50000, 0, "", mqwatch.RoleDeadQ, 0),
		},
		Inventories: map[string]*mqwatch.Inventory{"QM1.DEADQ": inv},
		Deltas:      map[string]mqwatch.InventoryDelta{"QM1.DEADQ": {Resync: true}},
		Heads:       map[string][]mqwatch.Summary{"ORDERS.IN": head(4000), "PAYMENTS.IN": head(212)},
	}
}

// TestMain pins the local time zone: the audit view shows local times.
func TestMain(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}

func newTestApp(t testing.TB, w, h int, o Options) (*App, *fakeSource) {
	t.Helper()
	src := &fakeSource{name: "QM1", ch: make(chan *mqwatch.Snapshot, 1)}
	r := lipgloss.NewRenderer(io.Discard) // the terminal: OSC 52 from y goes here
	r.SetColorProfile(termenv.Ascii)
	th, err := themes.Load("dark")
	if err != nil {
		t.Fatal(err)
	}
	o.Sources, o.Renderer, o.Theme = []Source{src}, r, th
	o.Now = func() time.Time { return clock.Add(time.Second) }
	if o.ExportDir == "" {
		o.ExportDir = "/home/op/.local/state/poisonwatch"
	}
	a := New(o)
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return a, src
}

// namedKeys are the keys tests name rather than type.
var namedKeys = map[string]tea.KeyType{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
	"backspace": tea.KeyBackspace, "ctrl+a": tea.KeyCtrlA, "ctrl+t": tea.KeyCtrlT, "ctrl+r": tea.KeyCtrlR,
	"ctrl+u": tea.KeyCtrlU, "ctrl+n": tea.KeyCtrlN, "ctrl+s": tea.KeyCtrlS, "ctrl+f": tea.KeyCtrlF, "left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
}

func keyMsg(s string) tea.KeyMsg {
	if s == "space" {
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	}
	if t, ok := namedKeys[s]; ok {
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// press sends keys and runs the commands they return synchronously (fetches,
// plans, runs), as the program would.
func press(a *App, keys ...string) {
	for _, k := range keys {
		_, cmd := a.Update(keyMsg(k))
		drain(a, cmd)
	}
}

// km is the key map tests press keys from by name (pressKey, flow.press)
// where what a key means is what is tested: a key moved in the map moves
// with them.
var km = DefaultKeyMap()

// bindingMsg is the key message of b's first key. It fails the test when
// keyMsg cannot spell that key, rather than pressing something else.
func bindingMsg(t testing.TB, b key.Binding) tea.KeyMsg {
	t.Helper()
	name := b.Keys()[0]
	if name == " " {
		name = "space"
	}
	m := keyMsg(name)
	if !key.Matches(m, b) {
		t.Fatalf("keyMsg cannot press %q (%s)", b.Keys()[0], b.Help().Desc)
	}
	return m
}

// pressKey presses bindings of the key map, as press presses literal keys.
func pressKey(t testing.TB, a *App, bs ...key.Binding) {
	t.Helper()
	for _, b := range bs {
		_, cmd := a.Update(bindingMsg(t, b))
		drain(a, cmd)
	}
}

func drain(a *App, cmd tea.Cmd) {
	for i := 0; cmd != nil && i < 20; i++ {
		msg := cmd()
		switch m := msg.(type) {
		case tea.BatchMsg:
			for _, c := range m {
				drain(a, c)
			}
			return
		case nil:
			return
		case snapshotMsg, tickMsg:
			return
		default:
			if cmds, ok := sequence(m); ok { // tea.Sequence's message: in order
				for _, c := range cmds {
					drain(a, c)
				}
				return
			}
			_, cmd = a.Update(m)
		}
	}
}

// sequence unpacks tea.Sequence's unexported message, a slice of commands.
func sequence(m tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Slice || v.Type().Elem() != reflect.TypeOf(tea.Cmd(nil)) {
		return nil, false
	}
	cmds := make([]tea.Cmd, v.Len())
	for i := range cmds {
		cmds[i] = v.Index(i).Interface().(tea.Cmd)
	}
	return cmds, true
}

func golden(t *testing.T, got string) {
	t.Helper()
	p := filepath.Join("testdata", t.Name()+".golden")
	if updating() {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update)", err)
	}
	if string(want) != got {
		t.Fatalf("screen differs from %s (run go test ./ui -update to accept):\n%s", p, udiff.Unified(p, "got", string(want), got))
	}
}

// checkFrame asserts the View contract: exactly h lines, none wider than w.
func checkFrame(t *testing.T, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Fatalf("line %d is %d wide, terminal %d: %q", i, lw, w, l)
		}
	}
}

func sampleMessage() mqwatch.Message {
	md := mqfmt.NewMQMD()
	md.Format, md.CodedCharSetId, md.Encoding = mqfmt.FmtDeadLetter, 1208, mqfmt.EncodingNative
	copy(md.MsgId[:], "AMQ QM1         ")
	md.PutDate, md.PutTime = mqfmt.FormatPutTime(clock.Add(-time.Minute))
	md.PutApplName = "amqrmppa"
	d := mqfmt.NewDLH()
	d.Reason, d.DestQName, d.DestQMgrName, d.Format, d.Encoding, d.CodedCharSetId, d.PutApplName = 2085, "INVOICE.IN", "QM2", mqfmt.FmtString, mqfmt.EncodingNative, 1208, "amqrmppa"
	d.PutApplType = mqfmt.ATUnix
	d.PutDate, d.PutTime = mqfmt.FormatPutTime(clock.Add(-time.Minute))
	bo, _ := mqfmt.EncodingNative.ByteOrder()
	data := append(d.AppendEncode(nil, bo), `{"invoice":4711,"amount":"12.50","note":"\u001b[2Jgotcha"}`...)
	return mqwatch.Message{MD: md, Data: data, Length: len(data)}
}

func windowSize(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

// topIs returns the screen on view as a T, failing the test when it is not.
// under is the screen below the one on view (the one a dialog acts for).
func under[T screen](t testing.TB, a *App) T {
	t.Helper()
	if len(a.stack) < 2 {
		t.Fatalf("nothing under %T", a.top())
	}
	s, ok := a.stack[len(a.stack)-2].(T)
	if !ok {
		t.Fatalf("screen under the top is %T", a.stack[len(a.stack)-2])
	}
	return s
}

func topIs[T screen](t testing.TB, a *App) T {
	t.Helper()
	s, ok := a.top().(T)
	if !ok {
		t.Fatalf("screen on view is %T", a.top())
	}
	return s
}

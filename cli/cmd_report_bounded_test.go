package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// hostileRecordingFile records a DEADQ whose queue manager, queues, users
// and error texts carry terminal escapes and markup.
func hostileRecordingFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hostile.pwrec")
	at := time.Date(2026, 12, 1, 20, 41, 0, 0, time.UTC)
	qm, dlq := "QM1"+hostileStrings[1], "DLQ"+hostileStrings[0]+"<script>alert(1)</script>"
	w, err := record.Create(path, 0, record.Header{Started: at, Interval: time.Minute, Source: "serve" + hostileStrings[2], QMgrs: []string{qm}})
	if err != nil {
		t.Fatal(err)
	}
	var inv *mqwatch.Inventory
	for i := range 3 {
		s := mqwatch.Summary{HasDLH: true, DLHReason: 2053, DLHDestQ: "IN" + hostileStrings[i+3], DLHDestQMgr: qm, Arrival: uint64(i + 1), DLHPutTime: at}
		s.MsgId[0] = byte(i)
		inv = inv.Append(s)
		w.Snapshot(&mqwatch.Snapshot{Seq: uint64(i + 1), Time: at.Add(time.Duration(i) * time.Minute), QMgrName: qm, Connected: true,
			QMgr: mqwatch.QMgrInfo{Name: qm, DeadQ: dlq},
			Queues: []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: dlq, MaxDepth: 5000}, HasStatus: true, Role: mqwatch.RoleDeadQ,
				Status: mqwatch.QueueStatus{Name: dlq, Depth: int32(inv.Len())}, Err: errors.New("2035 " + hostileStrings[6])}},
			Inventories: map[string]*mqwatch.Inventory{dlq: inv}, Deltas: map[string]mqwatch.InventoryDelta{dlq: {Resync: true}}})
	}
	ep := model.Episode{Key: "k", QMgr: qm, Rule: "R8d", Queue: dlq, Text: "growing " + hostileStrings[7], Start: at.Add(time.Minute),
		Ack: model.Ack{By: "alice" + hostileStrings[8], At: at.Add(time.Minute), Note: "<img src=x onerror=alert(1)>" + hostileStrings[9]}}
	w.Transitions([]model.Transition{{Kind: "fired", At: ep.Start, Episode: ep}, {Kind: "acked", At: ep.Start, Episode: ep}})
	w.Entry(journal.Entry{Seq: 1, At: at.Add(2 * time.Minute), Kind: journal.Run, User: "bob" + hostileStrings[0], Op: "requeue", QMgr: qm, Queue: dlq,
		Text: "Requeue " + hostileStrings[1], Outcome: hostileStrings[4], Files: []string{"audit `" + hostileStrings[5]}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// report prints what a recording holds with nothing in it for a terminal
// to act on (the Markdown goes to standard output), and no markup of a
// name's making; the HTML holds no script.
func TestReportOfAHostileRecording(t *testing.T) {
	path := hostileRecordingFile(t)
	for _, format := range []string{"md", "html"} {
		out, errOut, code := runCLI("report", path, "--format", format)
		if code != 0 {
			t.Fatalf("report --format %s: exit %d: %s", format, code, errOut)
		}
		assertTerminalSafe(t, out)
		assertTerminalSafe(t, errOut)
		if strings.Contains(out, "<script") || strings.Contains(out, "<img") {
			t.Errorf("--format %s: markup reached the report", format)
		}
		if !strings.Contains(out, `QM1\x1b]0;PWNED\x07`) && !strings.Contains(out, `QM1\\x1b\]0;PWNED\\x07`) {
			t.Errorf("--format %s: the queue manager is not named:\n%s", format, out)
		}
	}
}

// craftedRecording is a recording of a header and frames of any types
// whose fields are named as record.Frame's are, as a crafted file holds.
func craftedRecording(t *testing.T, h record.Header, frames ...any) string {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	enc := gob.NewEncoder(gz)
	h.Magic, h.Version = record.Magic, record.Version
	for _, v := range append([]any{h}, frames...) {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	gz.Close()
	path := filepath.Join(t.TempDir(), "crafted.pwrec")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A recording of a few kilobytes that would decode to gigabytes (five
// million empty summaries in one chunk: one byte each on the wire, 432 in
// memory; reading it took 2.16 GB) is refused at its cap: report and
// playback exit 1 naming the cap, the frame and where it starts, having
// allocated little.
func TestReportAndPlaybackRefuseABomb(t *testing.T) {
	type summary struct{ Persistent bool }
	type inv struct {
		Queue string
		Full  bool
		Added []summary
	}
	type chunk struct {
		QMgr string
		Inv  inv
	}
	bomb := craftedRecording(t, record.Header{QMgrs: []string{"QM1"}},
		struct{ Chunk *chunk }{&chunk{QMgr: "QM1", Inv: inv{Queue: "DLQ", Full: true, Added: make([]summary, 5_000_000)}}})
	st, _ := os.Stat(bomb)
	if st.Size() > 64<<10 {
		t.Fatalf("the bomb is %d bytes", st.Size())
	}
	qmgrs := craftedRecording(t, record.Header{QMgrs: make([]string, 2000)})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"report", bomb}, "frame 1 (at byte "},
		{[]string{"report", bomb}, "the frames decode to more than 268435456 bytes (the cap on memory)"},
		{[]string{"report", qmgrs}, "the header (at byte 0 of the decompressed stream): more than 1000 queue managers (the cap)"},
		{[]string{"playback", qmgrs}, "more than 1000 queue managers (the cap)"},
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out, errOut, code := runCLI(tc.args...)
		runtime.ReadMemStats(&after)
		if code != 1 || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 1 and %q", tc.args, code, out, errOut, tc.want)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
			t.Errorf("%v allocated %d MB", tc.args, n>>20)
		}
	}
}

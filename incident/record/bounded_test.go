package record

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// hostile are strings that would act on a terminal: CSI, OSC 0 (the window
// title), OSC 52 (the clipboard), C1 CSI as a byte and as a rune, a bidi
// override, backspace and carriage return.
var hostile = []string{"\x1b[2J\x1b[?1049h", "\x1b]0;PWNED\x07", "\x1b]52;c;SGVsbG8=\x07", "A\x9b31mB", "A\u009b31mB", "ABC\u202eFED", "BS\x08CR\rEND"}

// checkSafe fails on any string in v (walked by reflection) holding a
// control character, a format character or invalid UTF-8.
func checkSafe(t testing.TB, where string, v any) {
	t.Helper()
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.String:
			s := v.String()
			if strings.HasSuffix(path, "Episode.Key") {
				s = strings.ReplaceAll(s, "\x00", "|") // an alert's key: names joined by NULs
			}
			if bad := unsafeRune(s); bad != "" {
				t.Fatalf("%s%s holds %s: %q", where, path, bad, v.String())
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i), path+"."+v.Type().Field(i).Name)
				}
			}
		case reflect.Slice, reflect.Array:
			if v.Type().Elem().Kind() == reflect.Uint8 {
				return // message bytes, shown only through the decoders
			}
			for i := range v.Len() {
				walk(v.Index(i), path+"[]")
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(k, path+"{key}")
				walk(v.MapIndex(k), path+"{}")
			}
		}
	}
	walk(reflect.ValueOf(v), "")
}

func unsafeRune(s string) string {
	for i, r := range s {
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") || !unicode.IsGraphic(r) {
			return "a control, format or invalid character"
		}
	}
	return ""
}

// hostileRecording writes a recording whose every string carries control
// sequences: queue manager, queue and head names, summaries, errors, alert
// episodes and acknowledgements, actions and the war room's members.
func hostileRecording(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hostile.pwrec")
	h := strings.Join(hostile, "|")
	qm := "QM" + hostile[1]
	w, err := Create(path, 0, Header{Interval: 2 * time.Second, Source: "sim" + hostile[0], QMgrs: []string{qm}})
	if err != nil {
		t.Fatal(err)
	}
	sum := dead(0)
	sum.DLHDestQ, sum.DLHDestQMgr, sum.DLHPutAppl, sum.PutApplName, sum.UserId, sum.ReplyToQ, sum.JMSDst, sum.DecodeErr = h, h, h, h, h, h, h, h
	dlq := "DLQ" + hostile[2]
	for i, s := range polls() {
		s.QMgrName, s.QMgr.Name, s.QMgr.DeadQ, s.QMgr.Platform = qm, qm, dlq, h
		if s.Connected {
			s.Queues[0].Info.Name, s.Queues[0].Status.Name, s.Queues[0].Info.BackoutQName = dlq, dlq, h
			s.Queues[0].Err = errors.New("2035 " + h)
			s.Inventories = map[string]*mqwatch.Inventory{dlq: s.Inventories["DLQ"].Append(sum)}
			s.Deltas = map[string]mqwatch.InventoryDelta{dlq: {Resync: true}}
			s.Heads = map[string][]mqwatch.Summary{"HEAD" + hostile[i%len(hostile)]: {sum}}
		} else {
			s.Err = errors.New("MQCONNX " + h)
		}
		w.Snapshot(s)
	}
	key := model.Alert{QMgr: qm, Rule: "R8d", Queue: dlq, Severity: actions.Warning}.Key()
	ep := model.Episode{Key: key, QMgr: qm, Rule: h, Queue: dlq, Text: h, Start: t0, Ack: model.Ack{By: "alice" + hostile[3], At: t0, Note: h}}
	w.Transitions([]model.Transition{{Kind: "fired", At: t0, Episode: ep}, {Kind: "acked", At: t0, Episode: ep}})
	w.Entry(journal.Entry{Seq: 1, At: t0, Kind: journal.Run, User: h, Op: h, QMgr: qm, Queue: dlq, Target: h, Alert: h, Text: h, Outcome: h,
		Note: h, Files: []string{h}, Steps: []journal.Step{{MQSC: h, Before: h, After: h, Error: h}}})
	w.Presence(Presence{At: t0, Members: []Member{{User: h, Role: h, Where: h, Driving: true}}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every string of a recording is sanitised as it is read, before a player,
// a report or a terminal sees it: frames, header, rebuilt snapshots and the
// sentences a playback flashes. The names stay recognisable.
func TestRecordingStringsSanitisedOnRead(t *testing.T) {
	r, err := ReadAll(hostileRecording(t))
	if err != nil {
		t.Fatal(err)
	}
	checkSafe(t, "header", r.Header)
	if r.Header.QMgrs[0] != `QM\x1b]0;PWNED\x07` {
		t.Errorf("queue manager read as %q", r.Header.QMgrs[0])
	}
	kinds := map[string]bool{}
	b := NewRebuilder()
	for _, fr := range r.Frames() {
		checkSafe(t, "frame", fr)
		if s := b.Frame(fr); s != nil {
			checkSafe(t, "snapshot", s)
			if s.Err != nil {
				checkSafe(t, "snapshot error", s.Err.Error())
			}
			for _, q := range s.Queues {
				if q.Err != nil {
					checkSafe(t, "queue error", q.Err.Error())
				}
			}
			for _, inv := range s.Inventories {
				inv.Each(func(_ int, sum *mqwatch.Summary) bool { checkSafe(t, "inventory", *sum); return true })
			}
		}
		kinds[reflect.ValueOf(fr).FieldByIndex([]int{firstSet(fr)}).Type().Elem().Name()] = true
	}
	for _, k := range []string{"Poll", "Chunk", "AlertEvent", "Entry", "Presence"} {
		if !kinds[k] {
			t.Errorf("no %s frame was checked", k)
		}
	}
	p := NewPlayer(r)
	steps, _ := p.Seek(t0.Add(time.Hour))
	acked := false
	for _, st := range steps {
		checkSafe(t, "step", st.Flash)
		if st.Ack != nil {
			// The acknowledgement finds the alert the model raises from
			// the names as read.
			acked = st.Ack.Key == model.Alert{QMgr: r.Header.QMgrs[0], Rule: "R8d", Queue: `DLQ\x1b]52;c;SGVsbG8=\x07`, Severity: actions.Warning}.Key()
		}
	}
	if !acked {
		t.Error("the replayed acknowledgement's key does not match the sanitised names")
	}
}

// firstSet is the index of the one pointer set in a frame.
func firstSet(fr Frame) int {
	v := reflect.ValueOf(fr)
	for i := range v.NumField() {
		if !v.Field(i).IsNil() {
			return i
		}
	}
	return 0
}

// craft writes a recording of the given values as gob frames, gzipped: a
// header of this package's, then values of any type whose field names
// match Frame's, as a crafted file would hold.
func craft(t testing.TB, frames ...any) string {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	enc := gob.NewEncoder(gz)
	if err := enc.Encode(Header{Magic: Magic, Version: Version, QMgrs: []string{"QM1"}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range frames {
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "crafted.pwrec")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Crafted mirrors of Frame: gob matches fields by name, so these decode as
// Frames. An empty summary is one byte on the wire and 432 in memory.
type (
	craftSummary struct{ Persistent bool }
	craftInv     struct {
		Queue string
		Full  bool
		Added []craftSummary
	}
	craftChunk struct {
		QMgr string
		Inv  craftInv
	}
	craftPoll struct {
		QMgr   string
		Queues []struct{ Info struct{ Name string } }
		Invs   []craftInv
	}
	craftFrame struct {
		Poll  *craftPoll
		Chunk *craftChunk
	}
)

func chunkOf(queue string, n int, full bool) craftFrame {
	return craftFrame{Chunk: &craftChunk{QMgr: "QM1", Inv: craftInv{Queue: queue, Full: full, Added: make([]craftSummary, n)}}}
}

// allocated is what f allocates, in bytes.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A small crafted file that would decode to gigabytes is refused before it
// is decoded, naming the cap passed, the frame and where it starts; what
// reading it allocates stays far below what it claims.
func TestCraftedRecordingsRefusedAtTheirCap(t *testing.T) {
	huge := craftFrame{Poll: &craftPoll{QMgr: strings.Repeat("A", 2<<20)}}
	for _, tc := range []struct {
		name   string
		frames []any
		lim    Limits
		want   string
		budget uint64 // bytes reading may allocate
	}{
		{"gzip_bomb_frame", []any{huge}, Limits{MaxFrameBytes: 1 << 20}, "frame 1 (at byte ", 8 << 20},
		{"gzip_bomb_frame_cap", []any{huge}, Limits{MaxFrameBytes: 1 << 20}, "a frame of more than 1048576 bytes (the cap on one frame)", 8 << 20},
		{"gzip_bomb_stream", []any{chunkOf("Q", 10, true), craftFrame{Poll: &craftPoll{QMgr: strings.Repeat("A", 2<<20)}}}, Limits{MaxBytes: 1 << 20}, "more than 1048576 decompressed bytes (the cap)", 64 << 20},
		{"two_million_empty_summaries", []any{chunkOf("Q", 2_000_000, true)}, Limits{}, "the frames decode to more than 268435456 bytes (the cap on memory)", 64 << 20},
		{"summaries_per_queue", []any{chunkOf("Q", 600, true), chunkOf("Q", 600, false)}, Limits{MaxSummaries: 1000}, "frame 2 (at byte", 64 << 20},
		{"summaries_per_queue_in_polls", []any{craftFrame{Poll: &craftPoll{QMgr: "QM1", Invs: []craftInv{{Queue: "Q", Full: true, Added: make([]craftSummary, 1001)}}}}}, Limits{MaxSummaries: 1000}, "QM1 Q: an inventory of more than 1000 messages (the cap on a queue's messages)", 64 << 20},
		{"queues_per_qmgr", []any{craftFrame{Poll: &craftPoll{QMgr: "QM1", Queues: make([]struct{ Info struct{ Name string } }, 1)}},
			chunkOf("A", 1, true), chunkOf("B", 1, true), chunkOf("C", 1, true)}, Limits{MaxQueues: 2}, "QM1: more than 2 inventories (the cap on a queue manager's queues)", 64 << 20},
		{"qmgrs", []any{craftFrame{Poll: &craftPoll{QMgr: "QM1"}}, craftFrame{Poll: &craftPoll{QMgr: "QM2"}}, craftFrame{Poll: &craftPoll{QMgr: "QM3"}}}, Limits{MaxQMgrs: 2}, "frame 3 (at byte", 64 << 20},
		{"frames", []any{craftFrame{Poll: &craftPoll{QMgr: "QM1"}}, craftFrame{Poll: &craftPoll{QMgr: "QM1"}}, craftFrame{Poll: &craftPoll{QMgr: "QM1"}}}, Limits{MaxFrames: 2}, "frame 3 (at byte", 64 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := craft(t, tc.frames...)
			var r *Recording
			var err error
			n := allocated(func() {
				if r, err = OpenLimited(path, tc.lim); err == nil {
					r.Wait()
					err = r.Err()
				}
			})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, safeload.ErrTooLarge) {
				t.Fatalf("err = %v, want one with %q wrapping ErrTooLarge", err, tc.want)
			}
			if !strings.Contains(err.Error(), "the cap") {
				t.Errorf("the error does not name the cap: %v", err)
			}
			if n > tc.budget {
				t.Errorf("reading allocated %d MB, over %d MB", n>>20, tc.budget>>20)
			}
		})
	}
}

// The caps leave an ordinary recording alone, and a recording just under
// a cap reads whole.
func TestCapsLeaveOrdinaryRecordingsAlone(t *testing.T) {
	if _, err := ReadAll(hostileRecording(t)); err != nil {
		t.Fatal(err)
	}
	r, err := OpenLimited(craft(t, chunkOf("Q", 1000, true), chunkOf("Q", 0, false)), Limits{MaxSummaries: 1000, MaxFrames: 2})
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if r.Err() != nil || r.Len() != 2 {
		t.Fatalf("%d frames, %v", r.Len(), r.Err())
	}
}

// A playback of a recording refused part way shows what came before the
// refused frame, and says where and why it ends.
func TestPlaybackSaysWhereARefusedRecordingEnds(t *testing.T) {
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	poll := func(s int) Frame { return Frame{Poll: &Poll{QMgr: "QM1", Time: at(s), Connected: true}} }
	r, err := OpenLimited(craft(t, poll(0), poll(2), poll(4)), Limits{MaxFrames: 2})
	if err != nil {
		t.Fatal(err)
	}
	r.Wait()
	steps, _ := NewPlayer(r).Seek(at(10))
	last := steps[len(steps)-1].Flash
	if len(steps) != 3 || !strings.Contains(last, "the recording ends here: replay: frame 3") || !strings.Contains(last, "more than 2 frames (the cap)") {
		t.Fatalf("%d steps, last flash %q", len(steps), last)
	}
}

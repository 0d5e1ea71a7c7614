package record

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

var t0 = time.Date(2026, 12, 1, 20, 41, 0, 0, time.UTC)

func dead(i int) mqwatch.Summary {
	s := mqwatch.Summary{HasDLH: true, DLHReason: 2053, DLHDestQ: "ORDERS.IN", Arrival: uint64(i + 1), Length: 100 + i,
		PutTime: t0.Add(-time.Duration(i) * time.Second), BodyPrefix: []byte("body")}
	s.MsgId[0], s.MsgId[1] = byte(i), byte(i>>8)
	return s
}

// polls builds a story: a DEADQ read in full, messages arriving, the head
// got, a gap (a snapshot the recorder never saw), a lost connection.
func polls() []*mqwatch.Snapshot {
	var out []*mqwatch.Snapshot
	var inv *mqwatch.Inventory
	var seq uint64
	add := func(at time.Duration, inv *mqwatch.Inventory, d mqwatch.InventoryDelta, depth int32) {
		seq++
		out = append(out, &mqwatch.Snapshot{Seq: seq, Time: t0.Add(at), QMgrName: "QM1", Connected: true,
			QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "DLQ"},
			Queues: []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: "DLQ", MaxDepth: 5000}, HasStatus: true, Role: mqwatch.RoleDeadQ,
				Status: mqwatch.QueueStatus{Name: "DLQ", Depth: depth}}},
			Inventories: map[string]*mqwatch.Inventory{"DLQ": inv}, Deltas: map[string]mqwatch.InventoryDelta{"DLQ": d}})
	}
	var first []mqwatch.Summary
	for i := 0; i < 100; i++ {
		first = append(first, dead(i))
	}
	inv = inv.Append(first...)
	add(0, inv, mqwatch.InventoryDelta{Resync: true}, 100)
	add(2*time.Second, inv, mqwatch.InventoryDelta{}, 100)
	inv = inv.Append(dead(100), dead(101))
	add(4*time.Second, inv, mqwatch.InventoryDelta{Added: []mqwatch.Summary{dead(100), dead(101)}}, 102)
	gone := []mqwatch.Summary{*inv.At(0), *inv.At(1), *inv.At(2)}
	inv = inv.DropHead(3)
	add(6*time.Second, inv, mqwatch.InventoryDelta{Dropped: gone}, 99)
	seq++ // a poll the recorder did not see
	inv = inv.Append(dead(102))
	add(10*time.Second, inv, mqwatch.InventoryDelta{Added: []mqwatch.Summary{dead(102)}}, 100)
	seq++
	out = append(out, &mqwatch.Snapshot{Seq: seq, Time: t0.Add(12 * time.Second), QMgrName: "QM1",
		Err: fmt.Errorf("poll: %w", &mqwatch.Error{Verb: "MQCONNX", CC: 2, RC: mqfmt.Reason(2538)})})
	return out
}

func keys(inv *mqwatch.Inventory) []mqwatch.Key {
	var out []mqwatch.Key
	inv.Each(func(_ int, s *mqwatch.Summary) bool { out = append(out, s.Key()); return true })
	return out
}

// A recording read back gives the snapshots it was written from: the
// same queues, the same inventory in order, errors with their reason code.
func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.pwrec")
	w, err := Create(path, 0, Header{Interval: 2 * time.Second, Source: "test", QMgrs: []string{"QM1"}})
	if err != nil {
		t.Fatal(err)
	}
	in := polls()
	for _, s := range in {
		w.Snapshot(s)
	}
	w.Transitions([]model.Transition{{Kind: "acked", At: t0, Episode: model.Episode{Key: "k", Ack: model.Ack{By: "alice", Note: "on it"}}}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	b := NewRebuilder()
	var got []*mqwatch.Snapshot
	var acks int
	for _, fr := range r.Frames() {
		if snap := b.Frame(fr); snap != nil {
			got = append(got, snap)
		}
		if fr.Alert != nil && fr.Alert.Episode.Ack.Note == "on it" {
			acks++
		}
	}
	if len(got) != len(in) || acks != 1 {
		t.Fatalf("%d polls and %d acks back, want %d and 1", len(got), acks, len(in))
	}
	for i := range in {
		if !got[i].Connected {
			if mqwatch.ReasonOf(got[i].Err) != 2538 || got[i].Err.Error() != in[i].Err.Error() {
				t.Errorf("poll %d: error %v (reason %d), want %v", i, got[i].Err, mqwatch.ReasonOf(got[i].Err), in[i].Err)
			}
			continue
		}
		if fmt.Sprint(keys(got[i].Inventories["DLQ"])) != fmt.Sprint(keys(in[i].Inventories["DLQ"])) {
			t.Errorf("poll %d: inventory differs", i)
		}
		if got[i].Queues[0].Status.Depth != in[i].Queues[0].Status.Depth || !got[i].Time.Equal(in[i].Time) {
			t.Errorf("poll %d: depth %d at %s, want %d at %s", i, got[i].Queues[0].Status.Depth, got[i].Time, in[i].Queues[0].Status.Depth, in[i].Time)
		}
	}
	// Folded in order, the model ends where the live one did.
	live, replay := model.New(time.Now, 2*time.Second), model.New(time.Now, 2*time.Second)
	for i := range in {
		live.Fold(in[i])
		replay.Fold(got[i])
	}
	total := func(st *model.State) int {
		n := 0
		for _, g := range st.QMgr("QM1").Groups["DLQ"].Groups(0) {
			n += g.Count
		}
		return n
	}
	if l, r := total(live), total(replay); l != r || l == 0 {
		t.Errorf("groups hold %d messages replayed, %d live", r, l)
	}
}

// The DEADQ is written in full once; polls after carry only their changes,
// even after a snapshot the recorder missed.
func TestInventoryWrittenOnceThenDeltas(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.pwrec")
	w, _ := Create(path, 0, Header{QMgrs: []string{"QM1"}})
	for _, s := range polls() {
		w.Snapshot(s)
	}
	w.Close()
	r, _ := ReadAll(path)
	var full, added []int
	for _, fr := range r.Frames() {
		if fr.Chunk != nil {
			full = append(full, fr.Chunk.whole.Len()) // one chunk: the inventory so far is the chunk
		}
		if fr.Poll == nil {
			continue
		}
		for _, in := range fr.Poll.Invs {
			added = append(added, in.added())
		}
	}
	// In full at the start only; an unchanged poll writes nothing; after
	// the gap the change is worked out from the arrival numbers.
	if fmt.Sprint(full) != "[100]" || fmt.Sprint(added) != "[2 0 1]" {
		t.Errorf("full writes %v, delta writes %v; want [100] and [2 0 1]", full, added)
	}
}

// A recording past its size rotates; each file is whole on its own.
func TestRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.pwrec")
	w, _ := Create(path, 1500, Header{QMgrs: []string{"QM1"}})
	for _, s := range polls() {
		w.Snapshot(s)
	}
	w.Close()
	if _, err := os.Stat(path + ".1"); err != nil {
		t.Fatalf("no rotated file: %v", err)
	}
	for _, p := range []string{path, path + ".1"} {
		if _, err := ReadAll(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// A recording started where one exists says where it moved that one, so
// that serve can tell its operator; a first one moved nothing.
func TestCreateSaysWhereThePreviousRecordingWent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "serve.pwrec")
	for i, want := range []string{"", path + ".1"} {
		w, err := Create(path, 0, Header{QMgrs: []string{"QM1"}})
		if err != nil {
			t.Fatal(err)
		}
		w.Snapshot(polls()[0])
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if w.Path() != path || w.Rotated() != want {
			t.Fatalf("start %d: Path %q, Rotated %q; want %q, %q", i+1, w.Path(), w.Rotated(), path, want)
		}
	}
	if _, err := ReadAll(path + ".1"); err != nil {
		t.Fatalf("the first recording is not whole where the second said it went: %v", err)
	}
}

// A recording cut short (the process killed mid-write) reads up to its
// last whole frame; something else is refused with a clear error.
func TestTruncatedAndForeignFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.pwrec")
	w, _ := Create(path, 0, Header{QMgrs: []string{"QM1"}})
	for _, s := range polls() {
		w.Snapshot(s)
	}
	w.Close()
	data, _ := os.ReadFile(path)
	cut := filepath.Join(dir, "cut.pwrec")
	os.WriteFile(cut, data[:len(data)-30], 0o600) // inside the last frame
	if r, err := ReadAll(cut); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Logf("cut recording: %v (%d frames)", err, r.Len())
	} else if r.Len() == 0 {
		t.Error("a cut recording gave no frames")
	}
	other := filepath.Join(dir, "other")
	os.WriteFile(other, []byte("* dmpmqmsg file"), 0o600)
	if _, err := Open(other); err == nil || IsRecording(other) {
		t.Errorf("a foreign file opened: %v", err)
	}
}

func FuzzOpen(f *testing.F) {
	path := filepath.Join(f.TempDir(), "seed")
	w, _ := Create(path, 0, Header{QMgrs: []string{"QM1"}})
	for _, s := range polls() {
		w.Snapshot(s)
	}
	w.Close()
	seed, _ := os.ReadFile(path)
	f.Add(seed)
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(t.TempDir(), "f")
		os.WriteFile(p, data, 0o600)
		r, err := Open(p)
		if err != nil {
			return
		}
		r.Wait()
		b := NewRebuilder()
		for _, fr := range r.Frames() {
			b.Frame(fr)
		}
		// Opened light, each poll read again from its segment.
		l, err := OpenLight(p)
		if err != nil {
			return
		}
		defer l.Close()
		l.Wait()
		b = NewRebuilder()
		for i := range l.Len() {
			if fr, err := l.Full(i); err == nil {
				b.Frame(fr)
			}
		}
	})
}

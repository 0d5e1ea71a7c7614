package record

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// longDeadQ records n polls of a DEADQ gaining add dead letters and
// losing as many from its head each poll, with its depth changing: many
// segments, the first of them its first inventory's chunks.
func longDeadQ(t testing.TB, n, add int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "long.pwrec")
	w, err := Create(path, 0, Header{QMgrs: []string{"QM1"}, Interval: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var inv *mqwatch.Inventory
	next := 0
	grow := func(k int) []mqwatch.Summary {
		var out []mqwatch.Summary
		for range k {
			s := dead(next)
			s.MsgId[2], s.CorrelId[0] = byte(next>>16), byte(next)
			out = append(out, s)
			next++
		}
		return out
	}
	inv = inv.Append(grow(5000)...)
	for i := range n {
		d := mqwatch.InventoryDelta{Resync: i == 0}
		if i > 0 {
			d.Added = grow(add)
			for j := range add {
				d.Dropped = append(d.Dropped, *inv.At(j))
			}
			inv = inv.DropHead(add).Append(d.Added...)
		}
		w.Snapshot(&mqwatch.Snapshot{Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * 2 * time.Second), QMgrName: "QM1", Connected: true,
			QMgr: mqwatch.QMgrInfo{Name: "QM1", DeadQ: "DLQ"},
			Queues: []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: "DLQ", MaxDepth: 99999}, HasStatus: true, Role: mqwatch.RoleDeadQ,
				Status: mqwatch.QueueStatus{Name: "DLQ", Depth: int32(inv.Len() + i%7)}}},
			Inventories: map[string]*mqwatch.Inventory{"DLQ": inv}, Deltas: map[string]mqwatch.InventoryDelta{"DLQ": d}})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// A recording opened light keeps its polls' times only, and reads each
// again from its segment when asked: every frame read again is the frame
// read whole, and replaying either rebuilds the same snapshots.
func TestLightPollsReadAgainAreTheFramesReadWhole(t *testing.T) {
	path := longDeadQ(t, 1500, 40)
	whole, err := ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	light, err := OpenLight(path)
	if err != nil {
		t.Fatal(err)
	}
	defer light.Close()
	light.Wait()
	if light.Len() != whole.Len() {
		t.Fatalf("%d frames light, %d whole", light.Len(), whole.Len())
	}
	if n := len(light.seg.list); n < 4 {
		t.Fatalf("%d segments of polls, want several", n)
	}
	lights := 0
	rw, rl := NewRebuilder(), NewRebuilder()
	for i, w := range whole.Frames() {
		l := light.Frame(i)
		if l.Poll != nil && l.Poll.light {
			lights++
			if l.Poll.Queues != nil || l.Poll.Invs != nil {
				t.Fatalf("frame %d: a light poll holds its figures", i)
			}
		}
		full, err := light.Full(i)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(full, w) {
			t.Fatalf("frame %d read again differs from the frame read whole", i)
		}
		if sw, sl := rw.Frame(w), rl.Frame(full); !sameSnapshot(sw, sl) {
			t.Fatalf("frame %d: the snapshots rebuilt differ", i)
		}
	}
	last := light.seg.list[len(light.seg.list)-1]
	if want := last.first + last.n - 2*len(light.seg.list); lights < want || lights > 1500 {
		t.Errorf("%d of 1,500 polls light, want those of every segment read whole (%d frames)", lights, last.first+last.n)
	}
}

// A playback shows what it read: the file changed or removed under it
// changes nothing of what its polls are read again as.
func TestLightRecordingKeepsWhatItReadWhenTheFileChanges(t *testing.T) {
	path := longDeadQ(t, 600, 40)
	whole, err := ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	light, err := OpenLight(path)
	if err != nil {
		t.Fatal(err)
	}
	defer light.Close()
	light.Wait()
	if err := os.WriteFile(path, []byte("not a recording any more"), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, w := range whole.Frames() {
		full, err := light.Full(i)
		if err != nil || !reflect.DeepEqual(full, w) {
			t.Fatalf("frame %d after the file changed: %v", i, err)
		}
	}
}

// sameSnapshot compares what a replay shows of two rebuilt snapshots:
// queues, and each inventory's length and ends (every 100th poll, each
// of its messages) by identity.
func sameSnapshot(a, b *mqwatch.Snapshot) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !reflect.DeepEqual(a.Queues, b.Queues) || a.Seq != b.Seq || !a.Time.Equal(b.Time) || len(a.Inventories) != len(b.Inventories) {
		return false
	}
	for q, inv := range a.Inventories {
		other := b.Inventories[q]
		if inv.Len() != other.Len() || inv.Len() > 0 && (inv.Key(0) != other.Key(0) || inv.Key(inv.Len()-1) != other.Key(other.Len()-1)) {
			return false
		}
		if a.Seq%100 == 0 && !reflect.DeepEqual(keys(inv), keys(other)) {
			return false
		}
	}
	return true
}

package record

import (
	"errors"
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

// A file changed under a playback is told, not shown: the poll read again
// from a changed segment is refused, and the player stays where it was.
func TestLightRecordingChangedOnDiskIsRefused(t *testing.T) {
	path := longDeadQ(t, 1500, 40)
	light, err := OpenLight(path)
	if err != nil {
		t.Fatal(err)
	}
	defer light.Close()
	light.Wait()
	sg := light.seg.list[len(light.seg.list)/2]
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	f.ReadAt(b, sg.off+sg.len/2)
	b[0] ^= 0xff
	f.WriteAt(b, sg.off+sg.len/2)
	f.Close()
	if _, err := light.Full(sg.first); !errors.Is(err, errChanged) {
		t.Fatalf("a changed segment read again: %v", err)
	}
	p := NewPlayer(light)
	at := light.Frame(sg.first).Time()
	steps, _ := p.Seek(at.Add(time.Minute))
	if p.At().After(at) || len(steps) == 0 || steps[len(steps)-1].Flash == "" {
		t.Errorf("the player went on to %v past the changed segment (at %v)", p.At(), at)
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

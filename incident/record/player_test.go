package record

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// lastSnap is the last snapshot among steps.
func lastSnap(steps []model.PlaybackStep) *mqwatch.Snapshot {
	for i := len(steps) - 1; i >= 0; i-- {
		if steps[i].Snap != nil {
			return steps[i].Snap
		}
	}
	return nil
}

// A seek back restarts from the last checkpoint before the target, says
// so in its first step, and rebuilds the snapshot a player going forward
// from the start rebuilds: the same poll, queues and inventory.
func TestPlayerSeeksBackFromACheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.pwrec")
	w, err := Create(path, 0, Header{Interval: 2 * time.Second, Source: "test", QMgrs: []string{"QM1"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range polls() {
		w.Snapshot(s)
	}
	w.Close()
	rec, err := ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(rec)
	p.CheckpointEvery = 3 * time.Second
	var kept []int
	steps, _ := p.Seek(t0.Add(time.Minute))
	for _, st := range steps {
		if st.Checkpoint > 0 {
			kept = append(kept, st.Checkpoint)
		}
	}
	if !slices.Equal(kept, []int{1, 2}) { // after the polls at 4s and 10s
		t.Fatalf("checkpoints %v, want [1 2]", kept)
	}
	steps, fresh := p.Seek(t0.Add(7 * time.Second))
	if !fresh || len(steps) == 0 || steps[0].Restore != 1 {
		t.Fatalf("seek back: fresh %v, steps %+v; want a restart from checkpoint 1", fresh, steps)
	}
	got := lastSnap(steps)
	want := lastSnap(firstOf(NewPlayer(rec), t0.Add(7*time.Second)))
	if got == nil || want == nil || got.Time != want.Time || got.Seq != want.Seq || !slices.Equal(keys(got.Inventories["DLQ"]), keys(want.Inventories["DLQ"])) {
		t.Fatalf("from the checkpoint %+v, from the start %+v", got, want)
	}
	if p.At() != want.Time {
		t.Errorf("clock %s, want %s", p.At(), want.Time)
	}
}

func firstOf(p *Player, at time.Time) []model.PlaybackStep {
	p.CheckpointEvery = 0
	steps, _ := p.Seek(at)
	return steps
}

// A player that adopted the checkpoints of one run ahead jumps forward
// from the last checkpoint before its target (Restore), not through every
// frame; a step shorter than CheckpointEvery still passes every frame.
func TestPlayerJumpsForwardFromAdoptedCheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.pwrec")
	w, _ := Create(path, 0, Header{QMgrs: []string{"QM1"}, Interval: 2 * time.Second})
	for i := range 600 { // 20 minutes of polls
		w.Snapshot(&mqwatch.Snapshot{Seq: uint64(i + 1), Time: t0.Add(time.Duration(i) * 2 * time.Second), QMgrName: "QM1", Connected: true,
			Queues: []mqwatch.QueueView{{Info: mqwatch.QueueInfo{Name: "DLQ"}, HasStatus: true, Status: mqwatch.QueueStatus{Name: "DLQ", Depth: int32(i)}}}})
	}
	w.Close()
	rec, err := ReadAll(path)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(rec)
	a := p.Ahead()
	a.Seek(t0.Add(time.Hour))
	p.Adopt(a)
	if len(p.marks) < 9 {
		t.Fatalf("%d checkpoints adopted, want one every 2 minutes", len(p.marks))
	}
	steps, fresh := p.Seek(t0.Add(15*time.Minute + 30*time.Second))
	if !fresh || len(steps) == 0 || steps[0].Restore == 0 || len(steps) > 60 {
		t.Errorf("a jump of 15 minutes: fresh %v, %d steps, restore %d; want a restore and at most 2 minutes of polls", fresh, len(steps), steps[0].Restore)
	}
	steps, fresh = p.Seek(t0.Add(16*time.Minute + 30*time.Second))
	if fresh || len(steps) != 30 {
		t.Errorf("a step of a minute: fresh %v, %d steps; want the 30 polls passed", fresh, len(steps))
	}
}

// Checkpoints thin out along a long recording: 32 at CheckpointEvery, the
// next 32 twice as far apart, and so on.
func TestCheckpointsSpreadAlongALongRecording(t *testing.T) {
	p := &Player{CheckpointEvery: 2 * time.Minute}
	for i, want := range map[int]time.Duration{0: 2 * time.Minute, 31: 2 * time.Minute, 32: 4 * time.Minute, 64: 8 * time.Minute, 96: 16 * time.Minute} {
		p.marks = make([]mark, i)
		if got := p.spacing(); got != want {
			t.Errorf("after %d checkpoints: the next %v on, want %v", i, got, want)
		}
	}
}

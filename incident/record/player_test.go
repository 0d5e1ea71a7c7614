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

package cli

import (
	"testing"
	"time"
)

// A seek back restarts from the playback's last checkpoint before the
// target, and shows what folding the recording from its start to there
// shows: queues, depths and their history, alerts and since when.
func TestPlaybackSeekBackFromCheckpointShowsTheSamePicture(t *testing.T) {
	first, open := simPlayback(t, 7*time.Minute)
	// One playback goes back and forth: a checkpoint restored twice is as
	// it was kept, whatever was folded on from it in between.
	back := open()
	for _, to := range []time.Duration{5*time.Minute + 31*time.Second, 4*time.Minute + 10*time.Second, 5*time.Minute + 31*time.Second, time.Minute} {
		target := first.Add(to).Truncate(time.Second)
		// Forward to the end (checkpoints at 2, 4 and 6 minutes), then back.
		jumpTo(back, first.Add(7*time.Minute))
		jumpTo(back, target)
		// Straight from the start.
		straight := open()
		jumpTo(straight, target)
		if got, want := back.View(), straight.View(); got != want {
			t.Errorf("at +%s: after a seek back\n%s\nfrom the start\n%s", to, got, want)
		}
	}
}

package report

import (
	"math"
	"time"

	"gonum.org/v1/plot"

	"github.com/poisonwatch/poisonwatch/internal/words"
)

// clockTicks label the time axis on the clock, at round steps (every 5
// minutes, not at every 237 seconds), in the recording's time zone.
type clockTicks struct{ loc *time.Location }

// tickSteps are the steps a time axis may take, the smallest first.
var tickSteps = []time.Duration{10 * time.Second, 15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute,
	5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 3 * time.Hour,
	6 * time.Hour, 12 * time.Hour, 24 * time.Hour}

// maxClockTicks is how many labels fit under a panel.
const maxClockTicks = 8

func (c clockTicks) Ticks(lo, hi float64) []plot.Tick {
	span := time.Duration((hi - lo) * float64(time.Second))
	step := tickSteps[len(tickSteps)-1]
	for _, s := range tickSteps {
		if span/s < maxClockTicks {
			step = s
			break
		}
	}
	for span/step >= maxClockTicks {
		step *= 2 // a recording of weeks
	}
	layout := "15:04"
	switch {
	case step < time.Minute:
		layout = "15:04:05"
	case step >= 24*time.Hour || span > 24*time.Hour:
		layout = "2 Jan 15:04"
	}
	first := time.Unix(int64(math.Ceil(lo)), 0).In(c.loc)
	// Round in the clock's own zone: a 30-minute step starts at :00 or :30
	// on the wall, whatever the zone's offset.
	_, off := first.Zone()
	shift := time.Duration(off) * time.Second
	t := first.Add(shift).Truncate(step).Add(-shift)
	if t.Before(first) {
		t = t.Add(step)
	}
	var ticks []plot.Tick
	for ; float64(t.Unix()) <= hi; t = t.Add(step) {
		ticks = append(ticks, plot.Tick{Value: float64(t.Unix()), Label: t.In(c.loc).Format(layout)})
	}
	return ticks
}

// countTicks label a count's axis at round steps (1, 2 or 5 times a
// power of ten), at most six, with thousands separated as the rest of
// the report writes them; a count of messages has no half.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	if hi <= lo {
		return []plot.Tick{{Value: lo, Label: words.Commas(int64(lo))}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	step = max(step, 1)
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: words.Commas(int64(v))})
	}
	return ticks
}

package report

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func pts(offsets ...time.Duration) []Point {
	var out []Point
	for i, o := range offsets {
		out = append(out, Point{T: warm.Add(o), V: float64(i)})
	}
	return out
}

// runs are a segmentation's lengths.
func runs(segs [][]Point) []int {
	var out []int
	for _, s := range segs {
		out = append(out, len(s))
	}
	return out
}

func TestSegmentsBreakWherePollsStopped(t *testing.T) {
	m := time.Minute
	for _, tc := range []struct {
		name string
		pts  []Point
		gap  time.Duration
		want []int
	}{
		{"none", nil, 3 * m, nil},
		{"one poll", pts(0), 3 * m, []int{1}},
		{"steady, jittered", pts(0, 54*time.Second, 2*m+6*time.Second, 3*m), 3 * m, []int{4}},
		{"a warm-up poll, then 15 minutes of nothing", pts(0, 15*m, 16*m, 17*m), 3 * m, []int{1, 3}},
		{"two gaps", pts(0, m, 10*m, 11*m, 30*m), 3 * m, []int{2, 2, 1}},
		{"exactly the gap does not break", pts(0, 3*m), 3 * m, []int{2}},
		{"no interval known: never break", pts(0, 15*m), 0, []int{2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := runs(segments(tc.pts, tc.gap)); !slices.Equal(got, tc.want) {
				t.Errorf("runs %v, want %v", got, tc.want)
			}
		})
	}
}

func TestBreakAfterIsMuchLongerThanThePollInterval(t *testing.T) {
	marks := func(offsets ...time.Duration) map[string][]pollMark {
		var ms []pollMark
		for _, o := range offsets {
			ms = append(ms, pollMark{t: warm.Add(o), connected: true})
		}
		return map[string][]pollMark{"QM1": ms}
	}
	s := time.Second
	for _, tc := range []struct {
		name     string
		interval time.Duration
		polls    map[string][]pollMark
		want     time.Duration
	}{
		{"the recording's interval", 2 * s, marks(0, 15*time.Minute), 6 * s},
		{"no interval: the typical step seen", 0, marks(0, 10*s, 20*s, 30*s, 15*time.Minute), 30 * s},
		{"no interval, one poll: never break", 0, marks(0), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := breakAfter(tc.interval, tc.polls); got != tc.want {
				t.Errorf("%v, want %v", got, tc.want)
			}
		})
	}
}

// The war room's recording: a warm-up poll at 21:20, then polls from 21:35.
// The report finds the gap on each queue manager, its lines break there
// (the warm-up poll is a dot of its own), and the charts say so.
func TestAGapInTheRecordingIsAGapInTheCharts(t *testing.T) {
	rep := Build(warRoom(t), time.Time{}, time.Time{})
	if len(rep.Gaps) != 2 {
		t.Fatalf("gaps %+v, want one on QM1 and one on QM2", rep.Gaps)
	}
	for _, g := range rep.Gaps {
		if !g.From.Equal(warm) || g.To.Sub(g.From) < 15*time.Minute || g.NotConnect {
			t.Errorf("gap %+v, want 21:20 to 21:35 with no poll", g)
		}
	}
	for name, lines := range map[string]map[Key][]Point{"depth": rep.Series.DeadQ, "fill": rep.Series.Fill} {
		if got := runs(segments(lines[Key{"QM1", name2queue(name)}], rep.BreakAt)); !slices.Equal(got, []int{1, 16}) {
			t.Errorf("QM1's %s runs %v, want the warm-up poll alone, then 16 polls", name, got)
		}
	}
	var html strings.Builder
	if err := rep.HTML(&html); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">no poll</text>", "QM1: no figures from 21:20:00 to 21:35:00 (15m00s: no poll was recorded)"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

func name2queue(chart string) string {
	if chart == "depth" {
		return "DLQ"
	}
	return "ORDERS.BO"
}

// Arrivals are counted a minute at a time; a minute the DEADQ was read
// with no arrival of a reason is a 0 for it, not a line drawn across.
func TestArrivalsAreZeroInTheMinutesNothingCame(t *testing.T) {
	r := newRecorder(t, recordHeader())
	r.poll(warm, queues{qm: "QM1"})
	for i := 1; i <= 5; i++ {
		q := queues{qm: "QM1", deadQ: int32(i)}
		if i == 1 || i == 5 {
			q.arrive, q.arriveCause = 4, 2053
		}
		r.poll(warm.Add(time.Duration(i)*time.Minute), q)
	}
	rep := Build(r.done(), time.Time{}, time.Time{})
	var got []float64
	for _, p := range rep.Series.Arrivals[Key{"QM1", "MQRC_Q_FULL (2053)"}] {
		got = append(got, p.V)
	}
	if !slices.Equal(got, []float64{4, 0, 0, 0, 4}) {
		t.Errorf("arrivals a minute %v, want 4 0 0 0 4", got)
	}
}

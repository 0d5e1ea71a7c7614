package report

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// QM2's DEADQ of 2,000 messages does not flatten QM1's: each queue
// manager has its own panel on its own scale, on one time axis.
func TestOnePanelPerQueueManager(t *testing.T) {
	rep := Build(warRoom(t), time.Time{}, time.Time{})
	spec := rep.chartSpecs()[0]
	panels, left := panelKeys(spec.lines, rep.QMgrs)
	if len(panels) != 2 || panels[0][0].QMgr != "QM1" || panels[1][0].QMgr != "QM2" || left != "" {
		t.Fatalf("panels %v (%q), want QM1 then QM2", panels, left)
	}
	x0, x1 := rep.xRange(spec.lines)
	tops := map[string]float64{}
	for _, keys := range panels {
		p, _, err := rep.panel(spec, keys, colours(panels), x0, x1)
		if err != nil {
			t.Fatal(err)
		}
		tops[keys[0].QMgr] = p.Y.Max
		for _, k := range keys {
			for _, pt := range spec.lines[k] {
				x := float64(pt.T.Unix())
				if x <= p.X.Min || x >= p.X.Max || pt.V < p.Y.Min || pt.V >= p.Y.Max {
					t.Errorf("%v %v at %s is on or off the axes [%v,%v]×[%v,%v]", k, pt.V, pt.T.Format("15:04:05"), p.X.Min, p.X.Max, p.Y.Min, p.Y.Max)
				}
			}
		}
	}
	if tops["QM1"] > 100 || tops["QM2"] < 2009 {
		t.Errorf("scales %v: QM1's DEADQ of 48 drawn on QM2's scale", tops)
	}
	svg := string(rep.Charts()[0].SVG)
	for _, want := range []string{">QM1</text>", ">QM2</text>"} {
		if strings.Count(svg, want) != 1 {
			t.Errorf("the DEADQ chart has %d panels titled %q, want 1", strings.Count(svg, want), want)
		}
	}
}

// The arrivals' minute starts before the poll that counted it: the axis
// takes it in rather than drawing it off the left.
func TestTheTimeAxisHoldsEveryPoint(t *testing.T) {
	rep := &Report{From: warm.Add(30 * time.Second), To: warm.Add(5 * time.Minute)}
	lines := map[Key][]Point{{"QM1", "MQRC_Q_FULL (2053)"}: {{T: warm, V: 3}, {T: warm.Add(6 * time.Minute), V: 1}}}
	x0, x1 := rep.xRange(lines)
	if x0 >= float64(warm.Unix()) || x1 <= float64(warm.Add(6*time.Minute).Unix()) {
		t.Errorf("axis %v..%v leaves out points at %v and %v", x0, x1, warm.Unix(), warm.Add(6*time.Minute).Unix())
	}
}

// texts are an SVG's labels and where they start.
func texts(svg string) map[string]float64 {
	out := map[string]float64{}
	for _, m := range regexp.MustCompile(`<text x="([-0-9.e]+)"[^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		out[m[2]] = x
	}
	return out
}

// Legends sit in a column right of every panel's data, not on the lines;
// the charts' text is in the page's fonts.
func TestLegendsBesideThePlots(t *testing.T) {
	rep := Build(warRoom(t), time.Time{}, time.Time{})
	charts := rep.Charts()
	legendX := -1.0
	clockX := map[string]float64{}
	for _, c := range charts {
		at := texts(string(c.SVG))
		for _, hhmm := range []string{"21:20", "21:50"} {
			if x, ok := clockX[hhmm]; ok && math.Abs(at[hhmm]-x) > 0.5 {
				t.Errorf("%s: %s at x %v, another chart's at %v: the time axes do not line up", c.Title, hhmm, at[hhmm], x)
			}
			clockX[hhmm] = at[hhmm]
		}
		clock := 0.0
		for label, x := range at {
			if regexp.MustCompile(`^\d\d:\d\d$`).MatchString(label) {
				clock = max(clock, x)
			}
		}
		for label, x := range at {
			if label == "DLQ" || strings.HasPrefix(label, "MQRC_") || strings.HasPrefix(label, "ORDERS.BO") {
				if x < clock+20 {
					t.Errorf("%s: legend %q at x %v, on the plot (its last time label at %v)", c.Title, label, x, clock)
				}
				if legendX >= 0 && x != legendX {
					t.Errorf("%s: legend %q at x %v, another chart's at %v: the time axes do not line up", c.Title, label, x, legendX)
				}
				legendX = x
			}
		}
		if strings.Contains(string(c.SVG), "Liberation Sans;") || !strings.Contains(string(c.SVG), "font-family:"+strings.ReplaceAll(fontStack, `"`, "'")) {
			t.Errorf("%s: the chart's text is not in the page's fonts", c.Title)
		}
	}
	if legendX < 0 {
		t.Fatal("no legend found")
	}
}

func TestClockTicksAreRound(t *testing.T) {
	for _, tc := range []struct {
		span time.Duration
		want string
	}{
		{90 * time.Second, "21:20:00 21:20:15 21:20:30 21:20:45 21:21:00 21:21:15"},
		{30 * time.Minute, "21:20 21:25 21:30 21:35 21:40 21:45"},
		{3 * time.Hour, "21:30 22:00 22:30 23:00 23:30 00:00"},
	} {
		var got []string
		for _, tk := range (clockTicks{time.UTC}).Ticks(float64(warm.Add(-time.Second).Unix()), float64(warm.Add(tc.span).Unix())) {
			got = append(got, tk.Label)
		}
		if !strings.HasPrefix(strings.Join(got, " "), tc.want) || len(got) >= maxClockTicks {
			t.Errorf("%v: %v, want %s…, fewer than %d", tc.span, got, tc.want, maxClockTicks)
		}
	}
}

func TestCountTicksAreWholeAndRound(t *testing.T) {
	for _, tc := range []struct {
		hi   float64
		want string
	}{
		{5, "0 1 2 3 4 5"},
		{52.8, "0 10 20 30 40 50"},
		{105, "0 20 40 60 80 100"},
		{2209.9, "0 500 1,000 1,500 2,000"},
	} {
		var got []string
		for _, tk := range (countTicks{}).Ticks(0, tc.hi) {
			got = append(got, tk.Label)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("0..%v: %v, want %s", tc.hi, got, tc.want)
		}
	}
}

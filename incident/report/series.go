package report

import (
	"cmp"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Series are the figures charted, one point per poll (per minute for
// arrivals), each line named by its queue manager: a chart draws one panel
// per queue manager, so a small queue's incident is not flattened by
// another queue manager's large DEADQ.
type Series struct {
	DeadQ    map[Key][]Point // the DEADQ's depth
	BOQ      map[Key][]Point // a backout queue's depth
	Fill     map[Key][]Point // a backout queue's depth as a percent of its MAXDEPTH
	Arrivals map[Key][]Point // dead letters arrived on the DEADQ a minute, by MQDLH reason
	MaxDepth map[Key]int32   // a backout queue's MAXDEPTH at its last poll
}

// Key names one line: a queue of a queue manager, or one MQDLH reason of
// its DEADQ ("MQRC_Q_FULL (2053)").
type Key struct{ QMgr, Name string }

// Point is one figure at one time.
type Point struct {
	T time.Time
	V float64
}

// Gap is a time inside the report with no figures from a queue manager:
// no poll was recorded (the dashboard was not running), or the queue
// manager did not answer. Charts break their lines there.
type Gap struct {
	QMgr       string
	From, To   time.Time // the polls either side
	NotConnect bool      // polls came, but the queue manager was not connected
}

// collector folds polls into Series and finds the gaps.
type collector struct {
	s        Series
	arrivals map[Key]map[time.Time]float64
	minutes  map[string]map[time.Time]bool // the minutes a queue manager's DEADQ arrivals were read
	polls    map[string][]pollMark
}

type pollMark struct {
	t         time.Time
	connected bool
}

func newCollector() *collector {
	return &collector{
		s: Series{DeadQ: map[Key][]Point{}, BOQ: map[Key][]Point{}, Fill: map[Key][]Point{},
			Arrivals: map[Key][]Point{}, MaxDepth: map[Key]int32{}},
		arrivals: map[Key]map[time.Time]float64{},
		minutes:  map[string]map[time.Time]bool{},
		polls:    map[string][]pollMark{},
	}
}

// poll adds one snapshot's figures.
func (c *collector) poll(snap *mqwatch.Snapshot) {
	c.polls[snap.QMgrName] = append(c.polls[snap.QMgrName], pollMark{snap.Time, snap.Connected})
	if !snap.Connected {
		return
	}
	s := &c.s
	for _, v := range snap.Queues {
		k := Key{snap.QMgrName, v.Info.Name}
		depth := Point{snap.Time, float64(v.Status.Depth)}
		switch v.Role {
		case mqwatch.RoleDeadQ:
			s.DeadQ[k] = append(s.DeadQ[k], depth)
		case mqwatch.RoleBOQ:
			s.BOQ[k] = append(s.BOQ[k], depth)
			if v.Info.MaxDepth > 0 {
				s.MaxDepth[k] = v.Info.MaxDepth
				s.Fill[k] = append(s.Fill[k], Point{snap.Time, 100 * depth.V / float64(v.Info.MaxDepth)})
			}
		}
	}
	d, ok := snap.Deltas[snap.QMgr.DeadQ]
	if !ok || d.Resync {
		return // a first read: what was there, not what arrived
	}
	minute := snap.Time.Truncate(time.Minute)
	if c.minutes[snap.QMgrName] == nil {
		c.minutes[snap.QMgrName] = map[time.Time]bool{}
	}
	c.minutes[snap.QMgrName][minute] = true
	for i := range d.Added {
		k := Key{snap.QMgrName, reasonName(d.Added[i].DLHReason)}
		if c.arrivals[k] == nil {
			c.arrivals[k] = map[time.Time]float64{}
		}
		c.arrivals[k][minute]++
	}
}

// series ends the fold: a reason's line is 0 in the minutes its DEADQ
// was read and nothing of that reason arrived, so a line between two
// bursts does not draw arrivals that never were.
func (c *collector) series() Series {
	for k, byMin := range c.arrivals {
		for m := range c.minutes[k.QMgr] {
			c.s.Arrivals[k] = append(c.s.Arrivals[k], Point{T: m, V: byMin[m]})
		}
		slices.SortFunc(c.s.Arrivals[k], func(a, b Point) int { return a.T.Compare(b.T) })
	}
	return c.s
}

// gaps are the times longer than gap between two polls with figures, per
// queue manager, earliest first.
func (c *collector) gaps(gap time.Duration) []Gap {
	var out []Gap
	for qm, marks := range c.polls {
		slices.SortStableFunc(marks, func(a, b pollMark) int { return a.t.Compare(b.t) })
		var last time.Time
		down := false
		for _, m := range marks {
			if !m.connected {
				down = true
				continue
			}
			if !last.IsZero() && m.t.Sub(last) > gap {
				out = append(out, Gap{QMgr: qm, From: last, To: m.t, NotConnect: down})
			}
			last, down = m.t, false
		}
	}
	slices.SortFunc(out, func(a, b Gap) int { return cmp.Or(a.From.Compare(b.From), cmp.Compare(a.QMgr, b.QMgr)) })
	return out
}

// breakAfter is how long between two polls breaks a chart's line: much
// longer than the interval polls were made at (each wait is jittered by
// up to a tenth). With no interval recorded it is the typical one seen.
func breakAfter(interval time.Duration, polls map[string][]pollMark) time.Duration {
	if interval <= 0 {
		var steps []time.Duration
		for _, marks := range polls {
			for i := 1; i < len(marks); i++ {
				if d := marks[i].t.Sub(marks[i-1].t); d > 0 {
					steps = append(steps, d)
				}
			}
		}
		if len(steps) == 0 {
			return 0
		}
		slices.Sort(steps)
		interval = steps[len(steps)/2]
	}
	return 3 * interval
}

// segments splits pts where two points are more than gap apart: a line
// drawn across a time with no figures shows figures nobody saw. gap 0
// splits nothing.
func segments(pts []Point, gap time.Duration) [][]Point {
	var out [][]Point
	start := 0
	for i := 1; i < len(pts); i++ {
		if gap > 0 && pts[i].T.Sub(pts[i-1].T) > gap {
			out = append(out, pts[start:i])
			start = i
		}
	}
	if len(pts) > start {
		out = append(out, pts[start:])
	}
	return out
}

package model

import "time"

// Point is one observation of a figure.
type Point struct {
	T time.Time
	V float64
}

// Ring keeps the most recent observations of one figure, oldest first.
//
// A fleet of 50 queue managers of 1,000 queues holds 50,000 queues' rings,
// so a point is 16 bytes (Unix nanoseconds and the value, not a time.Time
// and its location), and a ring takes memory only once a point is added:
// most queues are never inventoried and never have an arrival ring filled.
type Ring struct {
	ts   []int64 // Unix nanoseconds
	vs   []float64
	size int
	next int // where the next point goes once the ring is full
	// spare is room kept past size once pictures share the ring (clone):
	// then the points are a window that Add moves along its buffer,
	// never writing where a picture reads, and next stays 0.
	spare int
}

// NewRing returns a ring holding up to n points.
func NewRing(n int) *Ring { return &Ring{size: max(n, 1)} }

// Add records an observation, evicting the oldest when full.
func (r *Ring) Add(t time.Time, v float64) {
	if r.spare > 0 {
		r.slide(t.UnixNano(), v)
		return
	}
	if r.ts == nil {
		r.ts, r.vs = make([]int64, 0, r.size), make([]float64, 0, r.size)
	}
	if len(r.ts) < r.size {
		r.ts, r.vs = append(r.ts, t.UnixNano()), append(r.vs, v)
		return
	}
	r.ts[r.next], r.vs[r.next] = t.UnixNano(), v
	r.next = (r.next + 1) % r.size
}

// Len returns the number of points held.
func (r *Ring) Len() int { return len(r.ts) }

// At returns the i-th point, 0 = oldest.
func (r *Ring) At(i int) Point {
	j := (r.next + i) % len(r.ts)
	return Point{time.Unix(0, r.ts[j]), r.vs[j]}
}

// Last returns the newest point and whether there is one.
func (r *Ring) Last() (Point, bool) {
	if r.Len() == 0 {
		return Point{}, false
	}
	return r.At(r.Len() - 1), true
}

// Values returns the values, oldest first (for sparklines).
func (r *Ring) Values() []float64 {
	out := make([]float64, r.Len())
	for i := range out {
		out[i] = r.At(i).V
	}
	return out
}

// PerMinute returns the change of the figure per minute over the points no
// older than window before the newest, and false when fewer than two points
// span a measurable time.
func (r *Ring) PerMinute(window time.Duration) (float64, bool) {
	last, ok := r.Last()
	if !ok {
		return 0, false
	}
	first := last
	for i := r.Len() - 1; i >= 0; i-- {
		p := r.At(i)
		if last.T.Sub(p.T) > window {
			break
		}
		first = p
	}
	dt := last.T.Sub(first.T)
	if dt <= 0 {
		return 0, false
	}
	return (last.V - first.V) / dt.Minutes(), true
}

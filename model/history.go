package model

import "time"

// Point is one observation of a figure.
type Point struct {
	T time.Time
	V float64
}

// Ring keeps the most recent observations of one figure, oldest first.
type Ring struct {
	pts  []Point
	next int
	full bool
}

// NewRing returns a ring holding up to n points.
func NewRing(n int) *Ring { return &Ring{pts: make([]Point, n)} }

// Add records an observation, evicting the oldest when full.
func (r *Ring) Add(t time.Time, v float64) {
	r.pts[r.next] = Point{t, v}
	r.next = (r.next + 1) % len(r.pts)
	if r.next == 0 {
		r.full = true
	}
}

// Len returns the number of points held.
func (r *Ring) Len() int {
	if r.full {
		return len(r.pts)
	}
	return r.next
}

// At returns the i-th point, 0 = oldest.
func (r *Ring) At(i int) Point {
	if r.full {
		return r.pts[(r.next+i)%len(r.pts)]
	}
	return r.pts[i]
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

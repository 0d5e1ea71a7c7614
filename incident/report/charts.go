package report

import (
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"time"

	"gonum.org/v1/plot/vg"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// maxLines is how many lines one panel draws: the largest; a panel of
// fifty backout queues reads as none.
const maxLines = 8

// maxPanels is how many queue managers one chart draws, the largest first.
const maxPanels = 8

// Chart is one SVG chart: a panel a queue manager, on one time axis.
type Chart struct {
	Title string
	SVG   template.HTML // generated here from numbers and names, escaped by the plot library
	Note  string
}

// chartSpec is what one chart draws, and how the Markdown tells it.
type chartSpec struct {
	title    string
	y        string // the Y axis's label
	unit     string // "%" for a fill
	lineName string // what a line is, as the Markdown table's column says
	lines    map[Key][]Point
	gap      time.Duration // a line breaks where two points are further apart
	yTop     float64       // a scale's natural top (100%); 0: the data's peak
	label    func(Key) string
	empty    string // said when nothing was recorded
	note     string
}

func (r *Report) chartSpecs() []chartSpec {
	name := func(k Key) string { return mqfmt.Sanitize(k.Name) }
	perMinute := r.BreakAt
	if perMinute > 0 {
		perMinute = max(perMinute, time.Minute) // arrivals are counted a minute at a time
	}
	return []chartSpec{
		{title: "Depth of each DEADQ", y: "messages", lineName: "DEADQ", lines: r.Series.DeadQ, gap: r.BreakAt, label: name,
			empty: "No DEADQ was watched."},
		{title: "DEADQ arrivals by reason", y: "per minute", lineName: "Reason", lines: r.Series.Arrivals, gap: perMinute, label: name,
			empty: "No dead letter arrived while the DEADQ was watched.",
			note:  "Messages that arrived on the DEADQ each minute, by the reason in their MQDLH; what was there at its first read is not counted."},
		{title: "Depth of the backout queues", y: "messages", lineName: "Backout queue", lines: r.Series.BOQ, gap: r.BreakAt,
			label: func(k Key) string {
				if m := r.Series.MaxDepth[k]; m > 0 {
					return name(k) + " (MAXDEPTH " + strconv.Itoa(int(m)) + ")"
				}
				return name(k)
			}, empty: "No backout queue was watched."},
		{title: "Backout queue fill", y: "% of MAXDEPTH", unit: "%", lineName: "Backout queue", lines: r.Series.Fill, gap: r.BreakAt,
			yTop: 100, label: name, empty: "No backout queue with a MAXDEPTH was watched."},
	}
}

// Charts draws the report's series.
func (r *Report) Charts() []Chart {
	specs := r.chartSpecs()
	out := make([]Chart, len(specs))
	drawn := make([]*drawing, len(specs))
	var legendW, inset vg.Length
	var all []map[Key][]Point
	for _, c := range specs {
		all = append(all, c.lines)
	}
	x0, x1 := r.xRange(all...) // one time axis for every chart: 21:40 is at one place down the page
	for i, c := range specs {
		out[i] = Chart{Title: c.title, Note: c.note}
		if len(c.lines) == 0 {
			out[i].Note = c.empty
			continue
		}
		d, err := r.build(c, x0, x1)
		if err != nil {
			out[i].Note = "Not drawn: " + err.Error()
			continue
		}
		drawn[i], legendW, inset = d, max(legendW, d.legendW), max(inset, d.inset)
		if d.left != "" {
			out[i].Note = cmp.Or(out[i].Note+" ", "") + d.left
		}
	}
	for i, d := range drawn {
		if d == nil {
			continue
		}
		svg, err := d.render(legendW, inset)
		if err != nil {
			out[i].Note = "Not drawn: " + err.Error()
			continue
		}
		out[i].SVG = svg
	}
	return out
}

// panelKeys groups a chart's lines by queue manager, in the recording's
// order of queue managers: each panel's largest lines (by peak, then
// name, drawn in name order) and, for more than maxPanels queue managers,
// the panels with the largest peaks. left says what was left out.
func panelKeys(lines map[Key][]Point, order []string) (panels [][]Key, left string) {
	peak := map[Key]float64{}
	by := map[string][]Key{}
	for k, pts := range lines {
		for _, p := range pts {
			peak[k] = max(peak[k], p.V)
		}
		by[k.QMgr] = append(by[k.QMgr], k)
	}
	var qms []string
	for qm := range by {
		qms = append(qms, qm)
	}
	qmPeak := func(qm string) (m float64) {
		for _, k := range by[qm] {
			m = max(m, peak[k])
		}
		return m
	}
	droppedLines := 0
	slices.SortFunc(qms, func(a, b string) int { return cmp.Or(cmp.Compare(qmPeak(b), qmPeak(a)), cmp.Compare(a, b)) })
	droppedPanels := max(len(qms)-maxPanels, 0)
	qms = qms[:len(qms)-droppedPanels]
	slices.SortFunc(qms, func(a, b string) int { return cmp.Or(cmp.Compare(rank(order, a), rank(order, b)), cmp.Compare(a, b)) })
	for _, qm := range qms {
		ks := by[qm]
		slices.SortFunc(ks, func(a, b Key) int { return cmp.Or(cmp.Compare(peak[b], peak[a]), cmp.Compare(a.Name, b.Name)) })
		if len(ks) > maxLines {
			droppedLines += len(ks) - maxLines
			ks = ks[:maxLines]
		}
		slices.SortFunc(ks, func(a, b Key) int { return cmp.Compare(a.Name, b.Name) })
		panels = append(panels, ks)
	}
	if droppedLines > 0 {
		left = fmt.Sprintf("Each panel draws its %d largest lines; %d more are left out.", maxLines, droppedLines)
	}
	if droppedPanels > 0 {
		left = cmp.Or(left+" ", "") + fmt.Sprintf("The %d queue managers with the largest figures are drawn; %d more are left out.", maxPanels, droppedPanels)
	}
	return panels, left
}

// sortedKeys are every line of a chart, in panel order, for the Markdown.
func sortedKeys(lines map[Key][]Point, order []string) []Key {
	ks := make([]Key, 0, len(lines))
	for k := range lines {
		ks = append(ks, k)
	}
	slices.SortFunc(ks, func(a, b Key) int {
		return cmp.Or(cmp.Compare(rank(order, a.QMgr), rank(order, b.QMgr)), cmp.Compare(a.QMgr, b.QMgr), cmp.Compare(a.Name, b.Name))
	})
	return ks
}

// rank is name's place in order; a name not there comes after.
func rank(order []string, name string) int {
	if i := slices.Index(order, name); i >= 0 {
		return i
	}
	return len(order)
}

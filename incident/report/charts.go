package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// maxLines is how many series one chart draws: the largest; a chart of
// fifty backout queues reads as none.
const maxLines = 8

// Chart is one SVG chart.
type Chart struct {
	Title string
	SVG   template.HTML // generated here from numbers and names, escaped by the plot library
	Note  string
}

// Charts draws the report's series.
func (r *Report) Charts() []Chart {
	var out []Chart
	for _, c := range []struct {
		title, y string
		s        map[string][]Point
		note     string
	}{
		{"Depth of the DEADQ and backout queues", "messages", r.Series.Depth, ""},
		{"Backout queue fill", "% of MAXDEPTH", r.Series.Fill, ""},
		{"DEADQ arrivals by reason", "per minute", r.Series.Arrivals, "Messages that arrived on the DEADQ each minute; its first read is not counted."},
	} {
		svg, dropped, err := r.draw(c.y, c.s)
		ch := Chart{Title: c.title, SVG: svg, Note: c.note}
		switch {
		case err != nil:
			ch.Note = "not drawn: " + err.Error()
		case dropped > 0:
			ch.Note = cmp.Or(ch.Note+" ", "") + fmt.Sprintf("The %d largest series are drawn; %d more are left out.", maxLines, dropped)
		}
		out = append(out, ch)
	}
	return out
}

// draw plots the largest series of s against time.
func (r *Report) draw(y string, s map[string][]Point) (template.HTML, int, error) {
	if len(s) == 0 {
		return "", 0, fmt.Errorf("nothing recorded")
	}
	names := make([]string, 0, len(s))
	peak := map[string]float64{}
	for name, pts := range s {
		names = append(names, name)
		for _, p := range pts {
			peak[name] = max(peak[name], p.V)
		}
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(cmp.Compare(peak[b], peak[a]), cmp.Compare(a, b)) })
	dropped := max(len(names)-maxLines, 0)
	names = names[:len(names)-dropped]
	slices.Sort(names)
	p := plot.New()
	p.Y.Label.Text = y
	p.X.Tick.Marker = plot.TimeTicks{Format: "15:04"}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Legend.Padding = vg.Points(1)
	p.X.Tick.Label.Font.Size = vg.Points(8)
	p.Y.Tick.Label.Font.Size = vg.Points(8)
	p.Y.Label.TextStyle.Font.Size = vg.Points(9)
	p.Y.Min = 0
	for i, name := range names {
		xys := make(plotter.XYs, len(s[name]))
		for j, pt := range s[name] {
			xys[j].X, xys[j].Y = float64(pt.T.Unix()), pt.V
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return "", 0, err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i / 7) // colour alone does not tell lines apart in print
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(name, l)
	}
	to := r.To
	if to.Before(r.From.Add(time.Minute)) {
		to = r.From.Add(time.Minute)
	}
	p.X.Min, p.X.Max = float64(r.From.Unix()), float64(to.Unix())
	w, err := p.WriterTo(7*vg.Inch, 3.2*vg.Inch, "svg")
	if err != nil {
		return "", 0, err
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return "", 0, err
	}
	return template.HTML(stripXMLHeader(b.Bytes())), dropped, nil
}

// stripXMLHeader drops what precedes <svg: inline SVG in HTML has no XML
// declaration.
func stripXMLHeader(b []byte) []byte {
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		return b[i:]
	}
	return b
}

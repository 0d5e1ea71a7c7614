package report

import (
	"bytes"
	"html/template"
	"image/color"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	pfont "gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// The charts' measures, in points.
var (
	chartWidth  = 9 * vg.Inch // drawn across the page's 1,100 pixels, 8-point labels read as its small print
	minPlotArea = 6 * vg.Inch // a panel's, before a long legend widens the chart
	panelHeight = 2.1 * vg.Inch
	ink         = color.RGBA{0x1b, 0x1f, 0x24, 0xff} // the page's --ink
	muted       = color.RGBA{0x5b, 0x65, 0x70, 0xff} // the page's --muted
	gridLine    = color.RGBA{0xe6, 0xe9, 0xed, 0xff}
	gapBand     = color.RGBA{0xf4, 0xf6, 0xf8, 0xff} // the page's --band
)

// chartFont is Liberation Sans: its widths lay the labels out, and the
// SVG then names the page's fonts (see fontStack), which Liberation Sans
// closes; a wider fallback has a tenth of the legend's width to spare.
func chartFont(size vg.Length) pfont.Font {
	return pfont.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

// drawing is one chart's panels before they are laid out: a panel a
// queue manager, one above the other on the same time axis, each on its
// own scale, with its legend beside it.
type drawing struct {
	plots   [][]*plot.Plot // one column
	legends []plot.Legend
	legendW vg.Length // the widest legend's, with room for a wider font
	inset   vg.Length // from a panel's left to its data: the Y axis's width
	left    string    // what was left out
}

// build makes one chart's panels.
func (r *Report) build(c chartSpec, x0, x1 float64) (*drawing, error) {
	panels, left := panelKeys(c.lines, r.QMgrs)
	colour := colours(panels)
	d := &drawing{plots: make([][]*plot.Plot, len(panels)), legends: make([]plot.Legend, len(panels)), left: left}
	for i, keys := range panels {
		p, leg, err := r.panel(c, keys, colour, x0, x1)
		if err != nil {
			return nil, err
		}
		d.plots[i], d.legends[i] = []*plot.Plot{p}, leg
		d.legendW = max(d.legendW, leg.Rectangle(draw.Canvas{}).Size().X*1.1+8)
		tile := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: chartWidth, Y: panelHeight}}}
		d.inset = max(d.inset, p.DataCanvas(tile).Min.X)
	}
	return d, nil
}

// render lays a chart out with its legends in a column legendW wide and
// its data inset from the left, both the same in every chart of the
// report, so their time axes line up down the page.
func (d *drawing) render(legendW, inset vg.Length) (template.HTML, error) {
	width := max(chartWidth, minPlotArea+legendW)
	cv := vgsvg.New(width, vg.Length(len(d.plots))*panelHeight)
	dc := draw.New(cv)
	area := draw.Crop(dc, inset-d.inset, -legendW, 0, 0)
	tiles := draw.Tiles{Rows: len(d.plots), Cols: 1, PadY: 10, PadTop: 4, PadBottom: 2, PadLeft: 2, PadRight: 12}
	for i, row := range plot.Align(d.plots, tiles, area) {
		d.plots[i][0].Draw(row[0])
		da := d.plots[i][0].DataCanvas(row[0])
		d.legends[i].Draw(draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: area.Max.X, Y: da.Min.Y}, Max: vg.Point{X: dc.Max.X, Y: da.Max.Y}}})
	}
	var b bytes.Buffer
	if _, err := cv.WriteTo(&b); err != nil {
		return "", err
	}
	return template.HTML(pageFonts(stripXMLHeader(b.Bytes()))), nil
}

// xRange is the chart's time axis: the report's span and every point in
// it (an arrival's minute starts before the poll that counted it), with a
// little room either side so no line ends on the frame.
func (r *Report) xRange(charts ...map[Key][]Point) (float64, float64) {
	from, to := r.From, r.To
	for _, lines := range charts {
		for _, pts := range lines {
			for _, p := range pts {
				from, to = minTime(from, p.T), maxTime(to, p.T)
			}
		}
	}
	to = maxTime(to, from.Add(time.Minute))
	pad := to.Sub(from).Seconds() / 50
	return float64(from.Unix()) - pad, float64(to.Unix()) + pad
}

// colours gives each line's name one colour in every panel: the same
// reason is the same colour on every queue manager.
func colours(panels [][]Key) map[string]int {
	var names []string
	for _, ks := range panels {
		for _, k := range ks {
			if !slices.Contains(names, k.Name) {
				names = append(names, k.Name)
			}
		}
	}
	slices.Sort(names)
	out := map[string]int{}
	for i, n := range names {
		out[n] = i
	}
	return out
}

// panel is one queue manager's plot and its legend: the gaps shaded,
// then the lines over them.
func (r *Report) panel(c chartSpec, keys []Key, colour map[string]int, x0, x1 float64) (*plot.Plot, plot.Legend, error) {
	qm := keys[0].QMgr
	p := plot.New()
	style(p)
	p.Title.Text = mqfmt.Sanitize(qm)
	p.Y.Label.Text = c.y
	p.X.Tick.Marker = clockTicks{r.From.Location()}
	p.Y.Tick.Marker = countTicks{}
	peak := 0.0
	for _, k := range keys {
		for _, pt := range c.lines[k] {
			peak = max(peak, pt.V)
		}
	}
	p.X.Min, p.X.Max = x0, x1
	p.Y.Min, p.Y.Max = 0, yTop(peak, c.yTop)
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = gridLine, gridLine
	p.Add(grid)
	for _, g := range r.Gaps {
		if g.QMgr != qm {
			continue
		}
		if err := addBand(p, g, (x1-x0)/10); err != nil {
			return nil, plot.Legend{}, err
		}
	}
	leg := plot.NewLegend()
	leg.TextStyle.Font = chartFont(8)
	leg.TextStyle.Color = ink
	leg.Top, leg.Left = true, true
	leg.ThumbnailWidth = 18
	leg.Padding = 2
	for _, k := range keys {
		thumb, err := addLine(p, segments(c.lines[k], c.gap), colour[k.Name])
		if err != nil {
			return nil, leg, err
		}
		leg.Add(c.label(k), thumb)
	}
	return p, leg, nil
}

// addLine draws one line as its unbroken runs, and says which of them
// the legend shows: a line shows its dashes, a dot only its colour.
func addLine(p *plot.Plot, runs [][]Point, colour int) (plot.Thumbnailer, error) {
	var thumb plot.Thumbnailer
	for _, run := range runs {
		xys := make(plotter.XYs, len(run))
		for j, pt := range run {
			xys[j].X, xys[j].Y = float64(pt.T.Unix()), pt.V
		}
		t, err := mark(xys, colour)
		if err != nil {
			return nil, err
		}
		p.Add(t)
		if thumb == nil || isLine(t) && !isLine(thumb) {
			thumb = t
		}
	}
	return thumb, nil
}

// addBand shades a gap, where no figures were read, and names it when it
// is wide enough (wide) to hold the words.
func addBand(p *plot.Plot, g Gap, wide float64) error {
	x0, x1, top := float64(g.From.Unix()), float64(g.To.Unix()), p.Y.Max
	b, err := plotter.NewPolygon(plotter.XYs{{X: x0, Y: 0}, {X: x1, Y: 0}, {X: x1, Y: top}, {X: x0, Y: top}})
	if err != nil {
		return err
	}
	b.Color, b.LineStyle.Width = gapBand, 0
	p.Add(b)
	if x1-x0 < wide {
		return nil
	}
	what := "no poll"
	if g.NotConnect {
		what = "not connected"
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: (x0 + x1) / 2, Y: top * 0.92}}, Labels: []string{what}})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font, l.TextStyle[i].Color, l.TextStyle[i].XAlign = chartFont(7.5), muted, draw.XCenter
	}
	p.Add(l)
	return nil
}

// plotThumb is a line or a point on a plot, with its legend's thumbnail.
type plotThumb interface {
	plot.Plotter
	plot.Thumbnailer
}

// mark draws one unbroken run of points: a line, or a dot for a point
// alone between two gaps (a warm-up poll), which a line would not show.
func mark(xys plotter.XYs, i int) (plotThumb, error) {
	if len(xys) == 1 {
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: plotutil.Color(i), Radius: 2.5, Shape: draw.CircleGlyph{}}
		return s, nil
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.Color = plotutil.Color(i)
	l.Dashes = plotutil.Dashes(i / 7) // colour alone does not tell lines apart in print
	l.Width = 1.5
	return l, nil
}

// yTop is the top of a panel's scale: room above the peak so the line is
// not drawn on the frame; a fill shows its whole 0-100% unless over it.
func yTop(peak, natural float64) float64 {
	if natural > 0 && peak <= natural {
		return natural * 1.05
	}
	return max(peak*1.1, 5)
}

// style sets a plot's text in the page's font and colours.
func style(p *plot.Plot) {
	p.Title.TextStyle.Font = chartFont(9.5)
	p.Title.TextStyle.Color = ink
	p.Title.Padding = 3
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = chartFont(8)
		a.Label.TextStyle.Color = muted
		a.Tick.Label.Font = chartFont(7.5)
		a.Tick.Label.Color = ink
		a.Color, a.Tick.Color = muted, muted
	}
	p.Y.Label.Padding = 2
}

// pageFonts names the page's fonts in the SVG in place of the one its
// labels were measured in, so the charts read in the page's type.
func pageFonts(svg []byte) []byte {
	family := strings.ReplaceAll(fontStack, `"`, `'`) // the SVG's style attributes are in double quotes
	return bytes.ReplaceAll(svg, []byte("font-family:Liberation Sans;"), []byte("font-family:"+family+";"))
}

// stripXMLHeader drops what precedes <svg: inline SVG in HTML has no XML
// declaration.
func stripXMLHeader(b []byte) []byte {
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		return b[i:]
	}
	return b
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func isLine(t plot.Thumbnailer) bool { _, ok := t.(*plotter.Line); return ok }

package ui

import (
	"cmp"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// Column describes one grid column. Width 0 with Flex takes the space left.
type Column struct {
	Title string
	Width int
	Flex  bool
	Right bool // right-align (numbers)
}

// Cell is one rendered cell: plain (already sanitised) text and a style.
type Cell struct {
	Text  string
	Style *lipgloss.Style // nil = base style
}

// Grid is a virtualised table: it asks for the cells of visible rows only, so
// its cost does not grow with the number of rows (a 100k-message DEADQ).
type Grid struct {
	Cols   []Column
	Rows   int
	Cursor int
	Offset int
	Width  int
	Height int // rows of data, excluding the header line
	Marked func(row int) bool
	// Level, when set, adds a column of symbols for what colour says: ■ red,
	// ▲ amber, so the rows read the same without colour (NO_COLOR).
	Level func(row int) int
	// Blurred hides the cursor: only the focused pane shows where it is.
	Blurred bool
	// CursorMark replaces the cursor's ▸ (a followed session pointing: »).
	CursorMark string
	Cell       func(row, col int) Cell
	widths     []int
	laidFor    int // the gutter the widths were worked out for
}

// SetSize fits the grid into w×h (h includes the header line).
func (g *Grid) SetSize(w, h int) {
	g.Width, g.Height = w, max(h-1, 1)
	g.layout()
	g.clamp()
}

func (g *Grid) layout() {
	g.widths, g.laidFor = make([]int, len(g.Cols)), g.gutter()
	// A line is the mark column, then the cells separated by one blank.
	used, flex := len(g.Cols)+g.gutter()-1, -1
	for i, c := range g.Cols {
		g.widths[i] = c.Width
		if c.Flex && flex < 0 {
			flex = i
			continue
		}
		used += c.Width
	}
	if flex >= 0 {
		g.widths[flex] = max(g.Width-used, min(g.Cols[flex].Width, 8))
	}
}

// gutter is the width before the first cell: the mark, and the level.
func (g *Grid) gutter() int {
	n := 1 // the cursor
	if g.Marked != nil {
		n++ // marks have a column of their own, so a marked row under the cursor shows both
	}
	if g.Level != nil {
		n++
	}
	return n
}

// levelMarks are the level column's symbols.
var levelMarks = [...]string{" ", "▲", "■"}

// SetRows changes the row count, keeping the cursor on the same index (rows
// are stable-sorted by the model, so the operator's place survives refreshes).
func (g *Grid) SetRows(n int) {
	g.Rows = n
	g.clamp()
}

func (g *Grid) clamp() {
	g.Cursor = min(max(g.Cursor, 0), max(g.Rows-1, 0))
	if g.Cursor < g.Offset {
		g.Offset = g.Cursor
	}
	if g.Cursor >= g.Offset+g.Height {
		g.Offset = g.Cursor - g.Height + 1
	}
	g.Offset = min(max(g.Offset, 0), max(g.Rows-g.Height, 0))
}

// Move moves the cursor by d rows.
func (g *Grid) Move(d int) { g.Cursor += d; g.clamp() }

// Page moves by a screenful.
func (g *Grid) Page(d int) { g.Move(d * g.Height) }

// Home and End jump to the first and last row.
func (g *Grid) Home() { g.Cursor = 0; g.clamp() }

// End jumps to the last row.
func (g *Grid) End() { g.Cursor = g.Rows - 1; g.clamp() }

// View renders the header and the visible rows, exactly Height+1 lines.
func (g *Grid) View(st *Styles) string {
	// Marks and levels may be set after SetSize (a screen's refresh): the
	// cached widths then leave one cell too few for them.
	if g.widths == nil || g.laidFor != g.gutter() {
		g.layout()
	}
	var b strings.Builder
	head := make([]string, len(g.Cols))
	for i, c := range g.Cols {
		head[i] = fit(c.Title, g.widths[i], c.Right)
	}
	b.WriteString(st.ColHead.Render(ansi.Truncate(strings.Repeat(" ", g.gutter())+strings.Join(head, " "), g.Width, "")))
	cells := make([]string, len(g.Cols))
	for r := g.Offset; r < g.Offset+g.Height; r++ {
		b.WriteByte('\n')
		if r >= g.Rows {
			continue
		}
		sel := r == g.Cursor && !g.Blurred
		mark := ""
		if g.Marked != nil {
			mark = " "
			if g.Marked(r) {
				mark = "●"
			}
		}
		for i, c := range g.Cols {
			cell := g.Cell(r, i)
			txt := fit(cell.Text, g.widths[i], c.Right)
			if !sel && cell.Style != nil {
				txt = cell.Style.Render(txt)
			}
			cells[i] = txt
		}
		line := strings.Join(cells, " ")
		if g.Level != nil {
			l := min(max(g.Level(r), 0), 2)
			if sel {
				line = levelMarks[l] + line
			} else {
				line = st.Level(l).Render(levelMarks[l]) + line
			}
		}
		if sel {
			cursor := cmp.Or(g.CursorMark, "▸")
			b.WriteString(st.Selected.Render(ansi.Truncate(fit(cursor+mark+line, g.Width, false), g.Width, "")))
			continue
		}
		if mark == "●" {
			mark = st.Marked.Render(mark)
		}
		b.WriteString(ansi.Truncate(" "+mark+line, g.Width, ""))
	}
	return b.String()
}

// fit pads or truncates plain text to exactly w cells.
func fit(s string, w int, right bool) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		return ansi.Truncate(s, w, "…")
	}
	pad := strings.Repeat(" ", w-n)
	if right {
		return pad + s
	}
	return s + pad
}

package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func (s *searchScreen) bindings(c common) []binding {
	k, sk := *c.Keys(), newSearchKeys()
	back := bind(k.Back, func() tea.Cmd { return s.stop(c) }, short)
	if s.pattern == nil || s.in.Focused() {
		return []binding{back, bind(sk.Start, func() tea.Cmd { return s.start(c) }, short)}
	}
	none := offIf(func() bool { return len(s.hits) == 0 }, "no match yet")
	out := append([]binding{back}, gridKeys(c.Keys(), &s.grid)...)
	return append(out,
		bind(sk.Start, func() tea.Cmd { return openMessage(c, s.queue, s.hits[s.grid.Cursor]) }, short, none),
		bind(sk.Search, run(func() {
			if s.cancel != nil {
				s.cancel()
			}
			s.in.Focus()
		}), short),
	)
}

// typeKey: while the pattern is being typed, keys go to the input.
func (s *searchScreen) typeKey(_ common, k tea.KeyMsg) tea.Cmd {
	if !s.in.Focused() {
		return nil
	}
	s.in, _ = s.in.Update(k)
	return nil
}

func (s *searchScreen) resize(c common, w, h int) {
	s.in.Width = max(w-len(s.in.Prompt)-2, 10)
	if s.grid.Cols == nil {
		s.grid.Cols = []Column{{Title: "#", Width: 6, Right: true}, {Title: "MsgId", Width: 20}, {Title: "Put", Width: 19},
			{Title: "Len", Width: 6, Right: true}, {Title: "Body", Width: 20, Flex: true}}
		s.grid.Cell = func(row, col int) Cell { return s.cell(c, row, col) }
	}
	s.grid.SetSize(w, max(h-3, 2))
}

func (s *searchScreen) scroll(d int) { s.grid.Move(d) }

func (s *searchScreen) cell(c common, row, col int) Cell {
	if row >= len(s.hits) {
		return Cell{}
	}
	m := &s.hits[row]
	switch col {
	case 0:
		return Cell{Text: fmt.Sprint(row + 1), Style: &c.Styles().Muted}
	case 1:
		return Cell{Text: fitID(m.MsgId, s.grid.Cols[1].Width)}
	case 2:
		if m.PutTime.IsZero() {
			return Cell{Text: "not set", Style: &c.Styles().Muted}
		}
		return Cell{Text: m.PutTime.Format("2006-01-02 15:04:05")}
	case 3:
		return Cell{Text: compact(float64(m.Length))}
	case 4:
		return Cell{Text: s.context(row, s.grid.widths[col])}
	}
	return Cell{}
}

// context is the line that shows a match: the decoded text around it or
// its bytes in hex (ops.Hit), else the body prefix decoded; sanitised,
// never the raw bytes.
func (s *searchScreen) context(row, w int) string {
	if row < len(s.how) && s.how[row].Kind != ops.NoMatch {
		return inView(s.how[row], w)
	}
	m := &s.hits[row]
	t, _ := mqfmt.DecodeTextEnc(m.BodyPrefix, m.BodyCCSID, m.Encoding)
	return mqfmt.Sanitize(strings.ReplaceAll(t, "\n", " "))
}

func (s *searchScreen) view(c common, w, h int) string {
	st := c.Styles()
	title := st.Title.Render("Search every body of " + s.loc.Queue)
	if s.pattern == nil || s.in.Focused() {
		help := st.Muted.Render("text is matched as each body's CCSID reads it (EBCDIC, UTF-16…), bytes where a body is not text; hex:… matches bytes · enter searches · esc closes")
		return fitHeight(title+"\n"+s.in.View()+"\n"+ansi.Truncate(help, w, "…"), h)
	}
	return fitHeight(title+"\n"+ansi.Truncate(s.status(c), w, "…")+"\n"+s.grid.View(st), h)
}

// status is the progress line: how far, how many, and how to stop.
func (s *searchScreen) status(c common) string {
	st := c.Styles()
	of := ""
	if s.prog.Depth > 0 {
		of = fmt.Sprintf(" of %d", s.prog.Depth)
	}
	line := fmt.Sprintf("%q: scanned %d%s · %d matches", s.pattern.String(), s.prog.Scanned, of, len(s.hits))
	line = mqfmt.Sanitize(line)
	switch {
	case s.running:
		line = st.Info.Render(line + " · searching… esc cancels")
	case s.err != nil:
		line = st.Warning.Render(line + " · stopped: " + mqfmt.Sanitize(s.err.Error()))
	default:
		line = st.OK.Render(line + " · done")
	}
	if n := max(s.prog.ByteMatches, s.byBytes); n > 0 {
		line += st.Muted.Render(fmt.Sprintf(" · %d matched as bytes (not text in a known CCSID)", n))
	}
	if s.more {
		line += st.Warning.Render(fmt.Sprintf(" · only the first %d listed", maxSearchHits))
	}
	if s.prog.Truncated > 0 {
		line += st.Muted.Render(fmt.Sprintf(" · %d bodies searched in their first MiB only", s.prog.Truncated))
	}
	return line
}

// inView is a match's line cut to w columns so that the match shows, as
// grep shows the matched part of a long line: what comes before it gives
// way ("…") when the match would fall past the column's edge.
func inView(h ops.Hit, w int) string {
	r := []rune(h.Context)
	if h.At < 0 || h.At+h.Len > len(r) || h.At+h.Len < w {
		return h.Context
	}
	start := max(h.At-max(w/4, 1), 0)
	return "…" + string(r[start:])
}

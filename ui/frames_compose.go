package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/model"
)

// laidBody is a dashboard's body fitted to its rows, with each line's
// width: what compose measures of it on every frame, measured once.
type laidBody struct {
	text   string
	lines  []string
	widths []int
	widest int
}

func layBody(body string, rows int) laidBody {
	b := laidBody{text: fitHeight(body, rows)}
	b.lines = strings.Split(b.text, "\n")
	b.widths = make([]int, len(b.lines))
	for i, l := range b.lines {
		b.widths[i] = ansi.StringWidth(l)
		b.widest = max(b.widest, b.widths[i])
	}
	return b
}

// paddedKey names a body's lines padded to a frame's widest line and cut
// at the terminal's width (the body's key has the width).
type paddedKey struct {
	body   bodyKey
	widest int
}

// composeShared gives what compose gives, with the body's lines padded
// and cut once for every frame as wide: sessions whose headers differ (a
// war room's presence line says who "you" are) still share the body's
// layout. ok false when the parts do not make exactly h lines: compose
// then does it as it does alone.
func composeShared(fc *FrameCache, pic *model.State, bk bodyKey, body laidBody, w, h int, header, crumbs, footer string) (string, bool) {
	head, crumb, foot := strings.Split(header, "\n"), strings.Split(crumbs, "\n"), strings.Split(footer, "\n")
	if len(head)+len(crumb)+len(body.lines)+len(foot) != h {
		return "", false
	}
	widest := body.widest
	for _, part := range [][]string{head, crumb, foot} {
		for _, l := range part {
			widest = max(widest, ansi.StringWidth(l))
		}
	}
	padded := lookup(fc, pic, func(g *frameGen) map[paddedKey]string { return g.padded }, paddedKey{bk, widest}, func() string {
		out := make([]string, len(body.lines))
		for i, l := range body.lines {
			out[i] = padLine(l, body.widths[i], widest, w)
		}
		return strings.Join(out, "\n")
	})
	var b strings.Builder
	for _, part := range [][]string{head, crumb} {
		for _, l := range part {
			b.WriteString(padLine(l, ansi.StringWidth(l), widest, w))
			b.WriteByte('\n')
		}
	}
	b.WriteString(padded)
	for _, l := range foot {
		b.WriteByte('\n')
		b.WriteString(padLine(l, ansi.StringWidth(l), widest, w))
	}
	return b.String(), true
}

// padLine is one line as compose leaves it: padded to the widest line of
// the frame (lipgloss.JoinVertical), then cut at the terminal's width
// (fill).
func padLine(l string, width, widest, w int) string {
	l += strings.Repeat(" ", widest-width)
	if lipgloss.Width(l) > w {
		l = ansi.Truncate(l, w, "")
	}
	return l
}

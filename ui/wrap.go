package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// wrapped gives a long line the rows below it instead of cutting it: text
// (plain, already sanitised) wraps at spaces to width w, each row styled,
// the first led by lead and the rest by as many spaces.
func wrapped(style lipgloss.Style, lead, text string, w int) []string {
	pad := strings.Repeat(" ", ansi.StringWidth(lead))
	rows := strings.Split(ansi.Wrap(text, max(w-len(pad)-1, 10), " "), "\n")
	for i, r := range rows {
		if i == 0 {
			rows[i] = style.Render(lead + r)
			continue
		}
		rows[i] = style.Render(pad + strings.TrimLeft(r, " "))
	}
	return rows
}

// joinedText is a view's text with its rows joined and spaces squeezed: what
// a test reads to find a sentence that wrapped.
func joinedText(v string) string {
	return strings.Join(strings.Fields(ansi.Strip(v)), " ")
}

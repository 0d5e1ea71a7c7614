package ui

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/poisonwatch/poisonwatch/themes"
)

// Styles are every style the ui uses, derived from a theme once. Views never
// build styles per row: at 10k rows that costs two orders of magnitude.
type Styles struct {
	Theme    themes.Theme
	Base     lipgloss.Style
	Muted    lipgloss.Style
	Header   lipgloss.Style
	Title    lipgloss.Style
	Border   lipgloss.Style
	Pane     lipgloss.Style
	Focused  lipgloss.Style
	Selected lipgloss.Style // cursor row: a background colour, not reverse video
	Marked   lipgloss.Style
	ColHead  lipgloss.Style
	OK       lipgloss.Style
	Warning  lipgloss.Style
	Danger   lipgloss.Style
	DangerBg lipgloss.Style
	Info     lipgloss.Style
	Accent   lipgloss.Style
	BadgeRO  lipgloss.Style
	BadgeRW  lipgloss.Style
	Key      lipgloss.Style
	Banner   lipgloss.Style
	Match    lipgloss.Style
	Tab      lipgloss.Style
	TabOn    lipgloss.Style
	// painted is what the styles rendered of the header's and the crumbs'
	// texts, which every frame renders again (paint).
	painted map[paintKey]string
}

// paintKey is one text in one of the styles (a field of the Styles that
// made the memo: they are never changed once made).
type paintKey struct {
	style *lipgloss.Style
	text  string
}

// maxPainted bounds the memo: the texts repeat (badges, ages, crumbs), so
// a full memo is emptied rather than kept growing.
const maxPainted = 256

// paint is style.Render(text), remembered: a render costs microseconds,
// and a room's every session renders the same badges on every poll.
func (s *Styles) paint(style *lipgloss.Style, text string) string {
	k := paintKey{style, text}
	if out, ok := s.painted[k]; ok {
		return out
	}
	if s.painted == nil || len(s.painted) >= maxPainted {
		s.painted = map[paintKey]string{}
	}
	out := style.Render(text)
	s.painted[k] = out
	return out
}

// NewStyles derives the styles from a theme on a renderer (whose colour
// profile decides whether colours are emitted at all: NO_COLOR, tests).
func NewStyles(r *lipgloss.Renderer, t themes.Theme) Styles {
	c := func(s string) lipgloss.TerminalColor {
		if s == "" {
			return lipgloss.NoColor{}
		}
		return lipgloss.Color(s)
	}
	ns := func() lipgloss.Style { return r.NewStyle().Foreground(c(t.Foreground)) }
	s := Styles{Theme: t}
	s.Base = ns()
	s.Muted = r.NewStyle().Foreground(c(t.Muted))
	s.Header = r.NewStyle().Foreground(c(t.Header)).Background(c(t.HeaderBg)).Bold(true)
	s.Title = r.NewStyle().Foreground(c(t.Focused)).Bold(true)
	s.Border = r.NewStyle().Foreground(c(t.Border))
	s.Pane = r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c(t.Border))
	s.Focused = r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c(t.Focused))
	s.Selected = ns().Background(c(t.Selected))
	s.Marked = r.NewStyle().Foreground(c(t.Marked)).Bold(true)
	s.ColHead = r.NewStyle().Foreground(c(t.Muted)).Bold(true)
	s.OK = r.NewStyle().Foreground(c(t.OK))
	s.Warning = r.NewStyle().Foreground(c(t.Warning))
	s.Danger = r.NewStyle().Foreground(c(t.Danger)).Bold(true)
	s.DangerBg = r.NewStyle().Foreground(c(t.Header)).Background(c(t.DangerBg)).Bold(true)
	s.Info = r.NewStyle().Foreground(c(t.Info))
	s.Accent = r.NewStyle().Foreground(c(t.Accent))
	s.BadgeRO = r.NewStyle().Foreground(c(t.BadgeRO)).Bold(true)
	s.BadgeRW = r.NewStyle().Foreground(c(t.BadgeRW)).Bold(true)
	s.Key = r.NewStyle().Foreground(c(t.Focused)).Bold(true)
	s.Banner = r.NewStyle().Foreground(c(t.Header)).Background(c(t.Accent)).Bold(true)
	s.Match = r.NewStyle().Foreground(c(t.Accent)).Underline(true)
	s.Tab = r.NewStyle().Foreground(c(t.Muted)).Padding(0, 1)
	s.TabOn = r.NewStyle().Foreground(c(t.Header)).Background(c(t.HeaderBg)).Bold(true).Padding(0, 1)
	return s
}

// Level picks a style for a severity-like level: 0 ok/plain, 1 warning, 2 danger.
func (s Styles) Level(l int) lipgloss.Style {
	switch l {
	case 1:
		return s.Warning
	case 2:
		return s.Danger
	}
	return s.Base
}

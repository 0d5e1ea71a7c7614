package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// rulesTable is a runmqdlq rules table loaded with ":rules FILE": the DEADQ
// triage and the message screen say which of its rules each message meets.
type rulesTable struct {
	path string
	t    *dlqrules.Table
	// pred holds the preview's verdicts per queue (dlqrules.Predict).
	pred model.Predictions
}

// typedCommand is the palette entry for a full command typed with its
// argument (":rules FILE", or ":rules" alone), nil for any other input,
// which the palette matches as usual; loaded is the table loaded now.
func typedCommand(loaded *rulesTable, input string) *paletteItem {
	f := strings.Fields(input)
	if len(f) == 0 || f[0] != "rules" {
		return nil
	}
	label, help := strings.Join(f, " "), "load this runmqdlq rules table"
	switch {
	case len(f) == 1 && loaded != nil:
		help = "show the loaded rules table: " + loaded.path
	case len(f) == 1:
		help = "no rules table loaded: type its path after rules"
	case len(f) == 2 && (f[1] == "show" || f[1] == "off"):
		help = map[string]string{"show": "show the loaded rules table", "off": "forget the loaded rules table"}[f[1]]
	}
	return &paletteItem{label: label, help: help, run: func(c common) tea.Cmd {
		cmd, _ := rulesCommand(c, input)
		return cmd
	}}
}

// rulesCommand runs ":rules FILE" (load a table), ":rules" or ":rules
// show" (show the loaded one) and ":rules off"; ok is false for any other
// input.
func rulesCommand(c common, input string) (tea.Cmd, bool) {
	f := strings.Fields(input)
	if len(f) == 0 || f[0] != "rules" {
		return nil, false
	}
	switch {
	case len(f) == 1, len(f) == 2 && f[1] == "show":
		return showRules(c), true
	case len(f) == 2 && f[1] == "off":
		return unloadRules(c), true
	}
	if why := c.Session().noFiles(); why != "" {
		c.Flash(why)
		return nil, true
	}
	path := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(input), "rules"))
	return loadRules(c, path), true
}

// warRoomNoFiles: war-room viewers are remote; they read no file of the
// host and write none.
const warRoomNoFiles = "the war room reads and writes no files on the host"

// loadRules parses the table at path. A table with any error is refused
// whole, as runmqdlq refuses it: the screen lists every error with its line
// and column, and the table loaded before (if any) stays.
func loadRules(c common, path string) tea.Cmd {
	s := c.Session()
	t, err := parseRulesFile(s.files, path)
	if err != nil {
		return c.Push(newRulesScreen(c.QMgrName(), path, nil, err, s.rules))
	}
	s.rules = &rulesTable{path: path, t: t, pred: model.Predictions{}}
	flash := fmt.Sprintf("rules table %s loaded: %d rules (the DEADQ triage shows which each group meets)", path, len(t.Rules))
	if len(t.Warnings) > 0 {
		flash += fmt.Sprintf("; %d warnings (:rules shows them)", len(t.Warnings))
	}
	c.Flash(flash)
	return c.Refresh()
}

// parseRulesFile reads the table through the session's Files.
func parseRulesFile(files Files, path string) (*dlqrules.Table, error) {
	f, err := files.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dlqrules.Parse(f)
}

// showRules opens the loaded table's screen.
func showRules(c common) tea.Cmd {
	r := c.Session().rules
	if r == nil {
		c.Flash("no rules table loaded: :rules FILE loads one")
		return nil
	}
	return c.Push(newRulesScreen(c.QMgrName(), r.path, r.t, nil, nil))
}

// rulesPaletteItems are the palette's rules entries: how to load, and with a
// table loaded (loaded), how to see it and to drop it. A session that may
// read no file (noFiles: a viewer's) can never load one, so it is offered
// none of them (typing ":rules FILE" still says why not).
func rulesPaletteItems(loaded *rulesTable, noFiles string) []paletteItem {
	if noFiles != "" && loaded == nil {
		return nil
	}
	items := []paletteItem{{"rules FILE", "load a runmqdlq rules table: type rules and its path", func(c common) tea.Cmd {
		c.Flash("type the table's path after rules: :rules /path/to/table.rules")
		return nil
	}}}
	if loaded == nil {
		return items
	}
	return append(items,
		paletteItem{"rules show", "the loaded rules table: " + loaded.path, showRules},
		paletteItem{"rules off", "forget the loaded rules table", unloadRules})
}

// unloadRules forgets the loaded table (a file named off loads as ./off).
func unloadRules(c common) tea.Cmd {
	c.Session().rules = nil
	c.Flash("rules table unloaded")
	return c.Refresh()
}

// rulesScreen shows a rules table as poisonwatch read it (rule numbers and
// lines, control data, warnings), or why it was refused.
type rulesScreen struct {
	base
	lines []string
	vp    viewport.Model
}

func newRulesScreen(qm, path string, t *dlqrules.Table, err error, kept *rulesTable) *rulesScreen {
	s := &rulesScreen{base: base{loc: model.Location{Screen: model.ScreenRules, QMgr: qm, Label: "rules " + filepath.Base(path)}}}
	if err != nil {
		s.lines = refusedLines(path, err, kept)
	} else {
		s.lines = tableLines(path, t)
	}
	for i, l := range s.lines {
		s.lines[i] = mqfmt.Sanitize(l) // the file's text is the operator's, not trusted
	}
	return s
}

func refusedLines(path string, err error, kept *rulesTable) []string {
	var es dlqrules.Errors
	if !errors.As(err, &es) {
		return []string{"cannot read rules table " + path + ": " + err.Error()}
	}
	out := []string{fmt.Sprintf("rules table %s refused: %s, so none of it is used (runmqdlq refuses such a table whole)", path, es.Counted()), ""}
	for _, e := range es {
		out = append(out, fmt.Sprintf("  %d:%d  %s", e.Pos.Line, e.Pos.Col, e.Msg))
	}
	if kept != nil {
		out = append(out, "", fmt.Sprintf("still in use: %s (%d rules)", kept.path, len(kept.t.Rules)))
	}
	return out
}

func tableLines(path string, t *dlqrules.Table) []string {
	out := []string{fmt.Sprintf("rules table %s: %d rules; the first that matches a message wins", path, len(t.Rules)), ""}
	if t.Control.Present {
		out = append(out, fmt.Sprintf("  line %-4d control  %s", t.Control.Pos.Line, t.Control.String()))
	}
	for i := range t.Rules {
		r := &t.Rules[i]
		out = append(out, fmt.Sprintf("  line %-4d #%-6d %s", r.Pos.Line, r.Number, r.String()))
	}
	if len(t.Warnings) > 0 {
		out = append(out, "", "warnings:")
		for _, w := range t.Warnings {
			out = append(out, "  "+w)
		}
	}
	return out
}

func (s *rulesScreen) resize(_ common, w, h int) {
	s.vp.Width, s.vp.Height = w, max(h, 1)
	lines := make([]string, len(s.lines))
	for i, l := range s.lines {
		lines[i] = ansi.Wrap(" "+l, w, "")
	}
	s.vp.SetContent(strings.Join(lines, "\n"))
}

func (s *rulesScreen) view(_ common, _, _ int) string { return s.vp.View() }

func (s *rulesScreen) scroll(n int) { scrollViewport(&s.vp, n) }

func (s *rulesScreen) bindings(c common) []binding { return viewportKeys(*c.Keys(), &s.vp) }

// viewportKeys are the moves of a screen that scrolls text.
func viewportKeys(k KeyMap, v *viewport.Model) []binding {
	return []binding{
		bind(k.Up, run(func() { v.ScrollUp(1) })),
		bind(k.Down, run(func() { v.ScrollDown(1) })),
		bind(k.PgUp, run(func() { v.PageUp() })),
		bind(k.PgDown, run(func() { v.PageDown() })),
		bind(k.Home, run(func() { v.GotoTop() })),
		bind(k.End, run(func() { v.GotoBottom() })),
	}
}

// scrollViewport moves v by n lines (the mouse wheel).
func scrollViewport(v *viewport.Model, n int) {
	if n < 0 {
		v.ScrollUp(-n)
	} else {
		v.ScrollDown(n)
	}
}

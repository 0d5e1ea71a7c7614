package ui

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/internal/words"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// opens says whether enter on the act shows more: a run's or an edit's
// messages, a change's steps.
func (r *auditRun) opens() bool {
	return r.res != nil || len(r.act.Steps) > 0 || r.act.Kind == journal.Run || r.act.Kind == journal.Edit
}

// fixResultCell is a fix's RESULT: each step's change, before → after,
// or the reason the queue manager refused it.
func (s *auditScreen) fixResultCell(a *journal.Act) Cell {
	var parts []string
	st := &s.st.OK
	for _, step := range a.Steps {
		if !step.Applied {
			st = &s.st.Warning
			parts = append(parts, "✗ "+cmpOr(step.Error, "refused"))
			continue
		}
		parts = append(parts, stepChange(step))
	}
	return Cell{Text: mqfmt.Sanitize(strings.Join(parts, "; ")), Style: st}
}

// stepChange writes a step's change compactly: "MAXDEPTH(100→5000)" for
// each attribute it changes, or its MQSC when it has no before (a define).
func stepChange(s journal.Step) string {
	before, after := mqscWords(s.Before), mqscWords(s.After)
	if len(before) == 0 || len(before) != len(after) {
		return s.MQSC
	}
	var out []string
	for i := range after {
		kb, vb := splitWord(before[i])
		ka, va := splitWord(after[i])
		if kb != ka {
			return s.Before + " → " + s.After
		}
		out = append(out, ka+"("+vb+"→"+va+")")
	}
	return strings.Join(out, " ")
}

// mqscWords splits "BOTHRESH(0) BOQNAME((blank))" into its keywords with
// their values, parentheses nested in a value kept.
func mqscWords(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ' ' && depth == 0:
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// splitWord splits "MAXDEPTH(100)" into MAXDEPTH and 100.
func splitWord(w string) (string, string) {
	k, v, ok := strings.Cut(w, "(")
	if !ok {
		return w, ""
	}
	return k, strings.TrimSuffix(v, ")")
}

// enterHint is the audit view's title hint: what enter shows.
func (s *auditScreen) enterHint() string {
	for i := range s.runs {
		if len(s.runs[i].act.Steps) > 0 {
			return "(enter: its messages or changes)"
		}
	}
	return "(enter: its messages)"
}

// openAuditRun is enter on an act: a run's or an edit's messages, or a
// change's steps.
func openAuditRun(r auditRun) screen {
	if len(r.act.Steps) > 0 {
		return newAuditFixScreen(r)
	}
	return newAuditRunScreen(r)
}

// auditFixScreen lists one fix's steps: the MQSC sent as PCF, the
// attributes before and after, and the queue manager's answer.
type auditFixScreen struct {
	base
	run  auditRun
	grid Grid
	st   *Styles
}

func newAuditFixScreen(r auditRun) *auditFixScreen {
	label := fmt.Sprintf("%s %s", r.act.Op, r.act.At.Local().Format("15:04:05"))
	return &auditFixScreen{base: base{loc: model.Location{Screen: model.ScreenAudit, QMgr: r.act.QMgr, Queue: cmpOr(r.act.Queue, r.act.QMgr), Label: label}}, run: r}
}

func (s *auditFixScreen) refresh(c common) tea.Cmd {
	s.st = c.Styles()
	s.grid.Cell = s.cell
	s.grid.SetRows(len(s.run.act.Steps))
	return nil
}

func (s *auditFixScreen) resize(_ common, w, h int) {
	s.grid.Cols = []Column{{Title: "BEFORE → AFTER", Width: 40, Flex: true}, {Title: "PCF ANSWER", Width: 30}}
	if w < 100 {
		s.grid.Cols[1].Width = 24
	}
	// The title, the grid, then the MQSC of the step under the cursor.
	s.grid.SetSize(w, max(h-4, 1))
}

func (s *auditFixScreen) scroll(d int) { s.grid.Move(d) }

func (s *auditFixScreen) bindings(c common) []binding { return gridKeys(c.Keys(), &s.grid) }

func (s *auditFixScreen) cell(row, col int) Cell {
	step := s.run.act.Steps[row]
	switch s.grid.Cols[col].Title {
	case "BEFORE → AFTER":
		if step.Before == "" {
			return Cell{Text: mqfmt.Sanitize(step.MQSC)}
		}
		return Cell{Text: mqfmt.Sanitize(step.Before + " → " + step.After)}
	case "PCF ANSWER":
		switch {
		case !step.Applied:
			return Cell{Text: mqfmt.Sanitize(cmpOr(step.Error, "refused")), Style: &s.st.Warning}
		case step.Skipped:
			return Cell{Text: "not sent: already so", Style: &s.st.Muted}
		}
		return Cell{Text: "applied (MQRC_NONE)", Style: &s.st.OK}
	}
	return Cell{}
}

func (s *auditFixScreen) view(c common, w, h int) string {
	a := &s.run.act
	title := s.st.Title.Render(fmt.Sprintf(" %s %s by %s on %s: %s sent as PCF %s", a.Op, mqfmt.Sanitize(a.Alert),
		mqfmt.Sanitize(a.Who()), mqfmt.Sanitize(a.QMgr), words.Count(len(a.Steps), "change"), position(s.grid)))
	out := title + "\n" + strings.TrimRight(s.grid.View(s.st), "\n")
	if s.grid.Cursor < len(a.Steps) {
		step := a.Steps[s.grid.Cursor]
		out += "\n\n" + s.st.Muted.Render(wrapWords("MQSC: "+mqfmt.Sanitize(step.MQSC), w-2, " "))
	}
	out += "\n" + s.st.Muted.Render(" "+mqfmt.Sanitize(a.Outcome))
	return fitHeight(out, h)
}

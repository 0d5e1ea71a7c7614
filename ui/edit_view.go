package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func (e *editScreen) bindings(c common) []binding {
	k, ek := *c.Keys(), newEditKeys()
	out := []binding{bind(k.Back, func() tea.Cmd {
		if e.phase == editConfirm {
			return cancelled(c)
		}
		return c.Pop()
	}, short)}
	switch e.phase {
	case editTyping:
		out = append(out, bind(ek.Save, func() tea.Cmd { return e.saved(c, e.ta.Value()) }, short))
	case editConfirm:
		out = append(out,
			bind(ek.Switch, run(func() { e.runFocus = !e.runFocus }), short,
				offIf(func() bool { return e.err != nil }, "the plan failed: there is nothing to put")),
			bind(ek.Confirm, func() tea.Cmd {
				if !e.runFocus || e.err != nil {
					return cancelled(c)
				}
				return e.put(c)
			}, short),
			bind(k.Up, run(func() { e.scroll(-1) })),
			bind(k.Down, run(func() { e.scroll(1) })),
		)
	case editDone:
		out = append(out, bind(k.Up, run(func() { e.scroll(-1) })), bind(k.Down, run(func() { e.scroll(1) })))
	}
	return out
}

// typeKey: while the textarea is on view every other key types into it.
func (e *editScreen) typeKey(_ common, k tea.KeyMsg) tea.Cmd {
	if e.phase != editTyping {
		return nil
	}
	e.ta, _ = e.ta.Update(k)
	return nil
}

func (e *editScreen) resize(_ common, w, h int) {
	if e.phase != editTyping {
		return // no textarea: $EDITOR has the body
	}
	e.ta.SetWidth(max(w-2, 10))
	e.ta.SetHeight(max(h-4, 3))
}

func (e *editScreen) scroll(d int) { e.off = max(0, e.off+d) }

func (e *editScreen) view(c common, w, h int) string {
	st := c.Styles()
	title := st.Title.Render(fmt.Sprintf("Edit and resend  %s", fitID(e.sum.MsgId, 48)))
	switch e.phase {
	case editExternal:
		return fitHeight(title+"\n"+st.Muted.Render("the editor has the terminal…"), h)
	case editTyping:
		hint := st.Muted.Render(fmt.Sprintf("editing as %s (CCSID %d) · ctrl+s saves and shows the plan · esc cancels", e.doc.Mode, e.doc.CCSID))
		return fitHeight(title+"\n"+hint+"\n"+e.ta.View(), h)
	case editPlanning:
		return fitHeight(title+"\n"+st.Muted.Render("planning: reading the message again…"), h)
	}
	lines := e.planLines(c, w)
	footer := e.buttons(c)
	body := h - 2
	if total := len(lines); total > body {
		e.off = min(e.off, total-body)
		lines = lines[e.off : e.off+body]
		if e.off+body < total {
			lines[len(lines)-1] = st.Muted.Render("… more below (↓)")
		}
	}
	return fitHeight(title+"\n"+strings.Join(lines, "\n")+strings.Repeat("\n", max(0, body-len(lines)))+"\n"+footer, h)
}

// planLines are the plan (or result): the sentence, the target, what stays,
// the diff of the body. Every message byte is sanitised.
func (e *editScreen) planLines(c common, w int) []string {
	st := c.Styles()
	p := e.plan
	if e.phase == editDone || e.phase == editRunning {
		p = e.res.Plan
		if p.Summary == "" {
			p = e.plan
		}
	}
	var out []string
	add := func(s string) { out = append(out, ansi.Truncate(s, w, "…")) }
	switch {
	case e.phase == editRunning:
		add(st.Info.Render(fmt.Sprintf("putting the edited copy, archiving and removing the original, then watching %.0f s for it coming back (R10f)…",
			e.req.Verify.Seconds())))
	case e.phase == editDone && e.err == nil:
		add(st.OK.Render(fmt.Sprintf("edited: the copy is on %s (MsgId %x)", e.res.Plan.Target, e.res.NewMsgId)))
		if v := e.res.Verify; v != nil && v.CameBack > 0 {
			add(st.Danger.Render("check: " + mqfmt.Sanitize(v.Sentence())))
		} else if v != nil {
			add(st.Muted.Render("check: " + mqfmt.Sanitize(v.Sentence())))
		}
		add(st.Muted.Render("original archived in " + e.res.ArchiveFile + " · audit " + e.res.AuditFile))
	case e.err != nil:
		add(st.Danger.Render(mqfmt.Sanitize(e.err.Error())))
		if e.phase == editDone {
			add(st.Muted.Render("nothing changed unless the line above says otherwise: the original stays on " + e.loc.Queue))
		}
	}
	if p.Summary != "" {
		for _, l := range strings.Split(wrapWords(mqfmt.Sanitize(p.Summary), w, ""), "\n") {
			add(l)
		}
	}
	if p.Target != "" {
		add(st.Key.Render("target  ") + mqfmt.Sanitize(p.Target))
	}
	if p.Route != "" {
		add(st.Key.Render("route   ") + mqfmt.Sanitize(p.Route))
	}
	for _, wn := range p.Warnings {
		add(st.Warning.Render("! " + mqfmt.Sanitize(wn)))
	}
	if len(p.Headers) > 0 {
		add(st.ColHead.Render("stays"))
		for _, hl := range p.Headers {
			add("  " + hl)
		}
	}
	if len(p.Diff) > 0 {
		add(st.ColHead.Render(fmt.Sprintf("body (%s)", p.Mode)))
		for _, d := range p.Diff {
			// One-line bodies (JSON, XML) are common: wrap, never cut, so
			// the change is on screen.
			for _, piece := range strings.Split(ansi.Hardwrap(mqfmt.Sanitize(d), max(w-4, 10), false), "\n") {
				switch {
				case strings.HasPrefix(d, "- "):
					piece = st.Danger.Render(piece)
				case strings.HasPrefix(d, "+ "):
					piece = st.OK.Render(piece)
				}
				add("  " + piece)
			}
		}
	}
	return out
}

// buttons: Cancel first and focused; Put only once the plan is there.
func (e *editScreen) buttons(c common) string {
	st := c.Styles()
	if e.phase != editConfirm {
		return st.Muted.Render("esc back")
	}
	if e.err != nil {
		return st.TabOn.Render("[ Cancel ]")
	}
	return buttons(st, "Cancel", "Put edited copy", e.runFocus) + st.Muted.Render("   tab switches · enter presses")
}

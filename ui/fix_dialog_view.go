package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// stepLines are the commands, "first:" before the ones that make room for
// the fix proper (R8e), each with the finding it clears.
func (d *fixDialog) stepLines(st *Styles, wrap func(string, int) []string) []string {
	var out []string
	ordered := len(d.plan.Steps) > 0 && d.plan.Steps[0].Fixes != ""
	for i, s := range d.plan.Steps {
		label := ""
		if ordered {
			label = "then:  "
			if s.Fixes != "" {
				label = "first: "
			}
		}
		mark := "   "
		if i < len(d.res.Steps) {
			switch r := d.res.Steps[i]; {
			case r.Skipped:
				mark = " = " // already so: nothing sent
			case r.Applied:
				mark = " ✓ "
			default:
				mark = " ✗ "
			}
		}
		out = append(out, mark+st.Accent.Render(label+mqfmt.Sanitize(s.MQSC)))
		if s.Fixes != "" {
			out = append(out, st.Muted.Render("          fixes "+mqfmt.Sanitize(s.Fixes)))
		}
		out = append(out, d.predictionLine(st, i)...)
	}
	if d.phase == fixConfirm && d.predErr != nil {
		out = append(out, wrap("dry run failed, nothing predicted: "+ops.DescribeReason(d.predErr), 3)...)
	}
	for _, c := range d.plan.CopyOnly {
		out = append(out, wrap("copy-only (y in the alert copies it): "+c, 3)...)
	}
	return out
}

// predictionLine is what the change gate's dry run says the command
// server will answer to step i, while the dialog waits for a choice.
func (d *fixDialog) predictionLine(st *Styles, i int) []string {
	if d.phase != fixConfirm || d.pred == nil || i >= len(d.pred.Steps) {
		return nil
	}
	r := d.pred.Steps[i]
	text := "dry run: " + mqfmt.Sanitize(r.Prediction)
	if r.Prediction == "" {
		text = "dry run: would apply"
	}
	style := st.Muted
	switch {
	case r.Predicted != 0:
		style = st.Danger
	case r.Uncertain:
		style = st.Warning
	}
	return []string{style.Render("     " + text)}
}

// fixTable is every attribute the fix changes: before → after and the
// authority its command needs. Columns are as wide as their longest value
// (up to a limit), so the authority still fits at 80 columns.
func fixTable(p actions.FixPlan, w int) []string {
	if len(p.Steps) == 0 {
		return nil
	}
	type row struct{ obj, kw, before, after, auth string }
	var rows []row
	objW, kwW, bW, aW := len("OBJECT"), len("ATTRIBUTE"), len("BEFORE"), len("AFTER")
	for _, s := range p.Steps {
		obj := mqfmt.Sanitize(s.Change.Queue)
		if obj == "" {
			obj = "QMGR " + mqfmt.Sanitize(p.QMgr)
		}
		for i, d := range s.Diff {
			r := row{obj, d.Keyword, mqfmt.Sanitize(d.Before), mqfmt.Sanitize(d.After), ""}
			if i == 0 {
				r.auth = s.Authority
			}
			rows = append(rows, r)
			objW, kwW = max(objW, min(len(r.obj), 32)), max(kwW, len(r.kw))
			bW, aW = max(bW, min(len(r.before), 16)), max(aW, min(len(r.after), 24))
		}
	}
	line := func(r row, arrow string) string {
		return ansi.Truncate(" "+fit(r.obj, objW, false)+" "+fit(r.kw, kwW, false)+" "+fit(r.before, bW, false)+arrow+fit(r.after, aW, false)+" "+r.auth, w, "…")
	}
	out := []string{"", line(row{"OBJECT", "ATTRIBUTE", "BEFORE", "AFTER", "AUTHORITY"}, "   ")}
	for _, r := range rows {
		out = append(out, line(r, " → "))
	}
	return out
}

// effectLines say which other findings the fix touches and what it needs
// before it takes effect, then what happened once applied.
func (d *fixDialog) effectLines(st *Styles, wrap func(string, int) []string) []string {
	var out []string
	if len(d.affects) > 0 {
		var ids []string
		for _, o := range d.affects {
			ids = append(ids, o.ID())
		}
		out = append(out, "")
		out = append(out, wrap("Also clears the way for: "+strings.Join(ids, ", ")+" (their fixes run this one first)", 1)...)
	}
	for _, n := range d.plan.Notes {
		out = append(out, "")
		out = append(out, wrap(n, 1)...)
	}
	switch d.phase {
	case fixRunning:
		out = append(out, "", st.Info.Render(" sending the changes to the command server…"))
	case fixVerifying:
		out = append(out, "", st.Info.Render(fmt.Sprintf(" applied; watching the next polls for %s to clear (%d/%d)", d.al.ID(), d.polls, verifyPolls)))
	case fixDone:
		if d.res.Stopped != "" {
			out = append(out, "", st.Danger.Render(" "+d.res.Stopped))
		}
		style := st.OK
		if d.err != nil || strings.HasPrefix(d.outcome, "still") {
			style = st.Danger
		}
		out = append(out, "")
		for _, l := range wrap(d.outcome, 1) {
			out = append(out, style.Render(l))
		}
		for _, n := range d.now {
			out = append(out, wrap("now firing: "+n, 1)...)
		}
	}
	return out
}

// footer is the Cancel / Apply pair; Cancel has the focus first.
func (d *fixDialog) footer(st *Styles, w int) string {
	if d.phase != fixConfirm {
		return st.Muted.Render(" esc closes")
	}
	if len(d.plan.CopyOnly) > 0 {
		return st.Muted.Render(" copy-only: nothing here can be applied · esc closes")
	}
	return ansi.Truncate(" "+buttons(st, "Cancel", fmt.Sprintf("Apply %d change(s)", len(d.plan.Steps)), d.apply)+"   tab switches · enter chooses · esc cancels", w, "…")
}

// buttons is a dialog's Cancel / act pair: the focused one alone is
// bracketed (and coloured), so focus reads without colour (NO_COLOR), as in
// the action dialog.
func buttons(st *Styles, cancel, act string, onAct bool) string {
	if onAct {
		return st.Tab.Render("  "+cancel+"  ") + "  " + st.DangerBg.Render("[ "+act+" ]")
	}
	return st.TabOn.Render("[ "+cancel+" ]") + "  " + st.Tab.Render("  "+act+"  ")
}

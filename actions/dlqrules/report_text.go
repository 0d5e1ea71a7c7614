package dlqrules

import (
	"fmt"
	"io"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// WriteText prints a preview for a terminal: per rule in table order its
// matches by group and what happens to them, then what no rule matches.
func (rep *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%d messages on %s of %s\n", rep.Total, mqfmt.Sanitize(rep.Queue), mqfmt.Sanitize(rep.QMgr))
	for i := range rep.Rules {
		rr := &rep.Rules[i]
		fmt.Fprintf(w, "\n%s: %s\n", ruleName(rr.Number, rr.Pos.Line), mqfmt.Sanitize(rr.Text))
		switch {
		case rr.Matched == 0 && rr.ShadowedBy > 0:
			fmt.Fprintf(w, "  matches nothing: shadowed by rule %d, which matches every message this one would (it acts only when rule %d's action fails)\n", rr.ShadowedBy, rr.ShadowedBy)
			continue
		case rr.Dead:
			fmt.Fprintln(w, "  matches nothing on the queue now (dead rule)")
			continue
		case rr.Matched == 0:
			fmt.Fprintf(w, "  fallback: takes none first; %d messages reach it if the earlier rule they meet spends its attempts\n", rr.Fallback)
			continue
		case rr.ShadowedBy > 0:
			fmt.Fprintf(w, "  shadowed by rule %d: it sees only messages rule %d's action failed on\n", rr.ShadowedBy, rr.ShadowedBy)
		}
		fmt.Fprintf(w, "  matches %d\n", rr.Matched)
		writeGroups(w, rr.Groups)
		for _, a := range rr.Does {
			fmt.Fprintf(w, "    %6d  %s\n", a.Count, mqfmt.Sanitize(says(a.Does, a.Outcome)))
			if a.Then != "" {
				fmt.Fprintf(w, "            then %s\n", mqfmt.Sanitize(a.Then))
			}
		}
	}
	fmt.Fprintf(w, "\nno rule matches %d (they stay on the queue)", rep.UnmatchedCount)
	if rep.NoDLH > 0 {
		fmt.Fprintf(w, "; %d of them have no MQDLH, which runmqdlq never processes", rep.NoDLH)
	}
	fmt.Fprintln(w)
	writeGroups(w, rep.Unmatched)
	for _, s := range rep.Warnings {
		fmt.Fprintln(w, "warning: "+s)
	}
}

// writeGroups lists groups, at most ten, the rest counted.
func writeGroups(w io.Writer, gs []GroupCount) {
	const most = 10
	for i, g := range gs {
		if i == most {
			rest := 0
			for _, g := range gs[most:] {
				rest += g.Count
			}
			fmt.Fprintf(w, "    %6d  in %d more groups\n", rest, len(gs)-most)
			return
		}
		fmt.Fprintf(w, "    %6d  %s\n", g.Count, mqfmt.Sanitize(g.label()))
	}
}

// label is "MQRC_Q_FULL (2053) -> ORDERS.IN (QM2)".
func (g *GroupCount) label() string {
	var b strings.Builder
	if g.ReasonName != "" {
		fmt.Fprintf(&b, "%s (%d)", g.ReasonName, g.Reason)
	} else {
		fmt.Fprintf(&b, "reason %d", g.Reason)
	}
	dest := g.DestQ
	if dest == "" {
		dest = "(blank)"
	}
	b.WriteString(" -> " + dest)
	if g.DestQMgr != "" {
		b.WriteString(" (" + g.DestQMgr + ")")
	}
	return b.String()
}

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// fixOutput is what `fix` prints: the plan, what the command server
// answered and whether the alert cleared.
type fixOutput struct {
	QMgr    string          `json:"qmgr"`
	Alert   string          `json:"alert"`
	Text    string          `json:"text"`
	Plan    actions.FixPlan `json:"plan"`
	DryRun  bool            `json:"dry_run,omitempty"`
	Result  *ops.FixResult  `json:"result,omitempty"`
	Outcome string          `json:"outcome"`
	Cleared bool            `json:"cleared"`
	// Now lists alerts on the queues the fix touched that fire since it.
	Now []string `json:"now_firing,omitempty"`
}

func (o *fixOutput) print(w io.Writer, asJSON bool) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(o)
		return
	}
	fmt.Fprintf(w, "%s on %s: %s\n", mqfmt.Sanitize(o.Alert), o.QMgr, mqfmt.Sanitize(o.Text))
	for _, l := range fixPlanLines(o.Plan) {
		fmt.Fprintln(w, l)
	}
	if o.Result != nil {
		for _, s := range o.Result.Steps {
			state := "applied"
			switch {
			case o.Result.DryRun && s.Predicted != 0:
				state = "REFUSED " + s.Prediction
			case o.Result.DryRun:
				state = s.Prediction
			case s.Skipped:
				state = "skipped (already so, or a larger limit)"
			case !s.Applied:
				state = "FAILED " + s.Error
			}
			fmt.Fprintf(w, "  %-8s %s\n", state, mqfmt.Sanitize(s.MQSC))
		}
		if o.Result.Stopped != "" {
			fmt.Fprintf(w, "  %s\n", o.Result.Stopped)
		}
	}
	fmt.Fprintln(w, o.Outcome)
	for _, a := range o.Now {
		fmt.Fprintln(w, "now firing: "+mqfmt.Sanitize(a))
	}
}

// fixPlanLines is a plan as text: each step's MQSC with "first:"/"then:"
// when it runs ahead of the fix proper, its attributes before → after and
// the authority it needs; then the notes and any copy-only command.
func fixPlanLines(p actions.FixPlan) []string {
	var out []string
	ordered := len(p.Steps) > 0 && p.Steps[0].Fixes != ""
	for _, s := range p.Steps {
		label := ""
		if ordered {
			label = "then:  "
			if s.Fixes != "" {
				label = "first: "
			}
		}
		out = append(out, "  "+label+mqfmt.Sanitize(s.MQSC))
		if s.Fixes != "" {
			out = append(out, "         fixes "+mqfmt.Sanitize(s.Fixes))
		}
		var diffs []string
		for _, d := range s.Diff {
			diffs = append(diffs, fmt.Sprintf("%s %s → %s", d.Keyword, mqfmt.Sanitize(d.Before), mqfmt.Sanitize(d.After)))
		}
		out = append(out, "         "+strings.Join(diffs, ", ")+"   needs "+s.Authority)
	}
	for _, n := range p.Notes {
		out = append(out, "  note: "+mqfmt.Sanitize(n))
	}
	for _, c := range p.CopyOnly {
		out = append(out, "  copy-only: "+mqfmt.Sanitize(c))
	}
	return out
}

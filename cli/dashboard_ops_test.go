package cli

import (
	"context"
	"flag"
	"path/filepath"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// The dashboard's rules prediction, as main wires it (engineOps over the
// queue manager's connector), says of the built-in demo's DEADQ, listed as
// the dashboard lists it (summaries), what `rules preview` says: the same
// rules, actions and outcomes, message for message.
func TestDashboardPredictsWhatThePreviewSays(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	ctx := context.Background()
	var f rulesFlags
	fs := flag.NewFlagSet("preview", flag.ContinueOnError)
	f.register(fs, "preview")
	if err := fs.Parse([]string{"--scenario", "builtin"}); err != nil {
		t.Fatal(err)
	}
	connector, _, err := openActionBackend(ctx, &f.backend)
	if err != nil {
		t.Fatal(err)
	}
	c, err := connector.Connect(ctx, mqwatch.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	qmi, err := c.QMgr(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := newEngineOps([]qmgrConn{{name: qmi.Name, conn: connector}}, true, "op", filepath.Join(t.TempDir(), "audit.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := dlqrules.ParseFile("../testdata/rules/demo.rules")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := dlqrules.Preview(ctx, dlqrules.Source{Conn: c, Engine: ops.engines[qmi.Name]}, tab, "")
	if err != nil {
		t.Fatal(err)
	}
	var subs []dlqrules.Subject
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: qmi.DeadQ}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		t.Fatal(err)
	}
	for first := true; ; first = false {
		m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: first})
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		s := mqwatch.Summarize(&m)
		subs = append(subs, dlqrules.SubjectOfSummary(&s))
	}
	_ = q.Close(ctx)
	vs, err := ops.PredictRules(ctx, qmi.Name, qmi.DeadQ, tab, subs)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]map[string]int{}
	for i := range vs {
		if v := &vs[i]; v.Rule >= 0 {
			if got[v.Rule] == nil {
				got[v.Rule] = map[string]int{}
			}
			got[v.Rule][v.String()]++
		}
	}
	for r, rr := range rep.Rules {
		for _, a := range rr.Does {
			if n := got[r][a.Does+": "+a.Outcome]; n != a.Count {
				t.Errorf("rule %d: the preview says %d × %q, the dashboard %d (%v)", r+1, a.Count, a.Does+": "+a.Outcome, n, got[r])
			}
		}
	}
	want := "rule 4 (line 8): forward to PARKING.NOWHERE (MQDLH kept): would fail with MQRC_UNKNOWN_OBJECT_NAME (2085): PARKING.NOWHERE does not exist"
	found := false
	for i := range vs {
		found = found || tab.ExplainVerdict(&vs[i]) == want
	}
	if !found {
		t.Errorf("no message reads %q", want)
	}
}

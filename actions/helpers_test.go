package actions

import (
	"slices"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// routeCase is one row of a routing table: the input, the effective fate and
// the rules its explanation must cite.
type routeCase struct {
	name      string
	in        RouteInput
	action    Fate   // effective action (after predicted failures)
	queue     string // effective target, when it matters
	reason    mqfmt.Reason
	rules     []string // rules cited anywhere in the explanation
	warnRules []string
	check     func(t *testing.T, r Routing)
}

func runRouteCases(t *testing.T, cases []routeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Route(&tc.in)
			if err != nil {
				t.Fatalf("Route: %v", err)
			}
			eff := r.Decision.Effective()
			if eff.Fate != tc.action {
				t.Errorf("effective action = %v, want %v\n%s", eff.Fate, tc.action, strings.Join(r.Explain(), "\n"))
			}
			if tc.queue != "" && eff.Queue != tc.queue {
				t.Errorf("effective queue = %q, want %q", eff.Queue, tc.queue)
			}
			if tc.reason != 0 && eff.Reason != tc.reason {
				t.Errorf("effective reason = %d, want %d", eff.Reason, tc.reason)
			}
			cited := citedRules(&r)
			for _, rule := range tc.rules {
				if !slices.Contains(cited, rule) {
					t.Errorf("explanation does not cite %s:\n%s", rule, strings.Join(r.Explain(), "\n"))
				}
			}
			for _, rule := range tc.warnRules {
				if !slices.ContainsFunc(r.Warnings, func(l Line) bool { return l.Rule == rule }) {
					t.Errorf("no %s warning in %v", rule, r.Warnings)
				}
			}
			if len(tc.warnRules) == 0 && len(r.Warnings) > 0 {
				t.Errorf("unexpected warnings %v", r.Warnings)
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

// citedRules lists every rule cited in the route, fallbacks and cases included.
func citedRules(r *Routing) []string {
	var out []string
	var walk func(d *Decision)
	walk = func(d *Decision) {
		for _, l := range d.Why {
			out = append(out, l.Rule)
		}
		if d.Report != nil {
			for _, l := range d.Report.Why {
				out = append(out, l.Rule)
			}
		}
		for _, c := range d.Cases {
			walk(c.Decision)
		}
		if d.OnFailure != nil {
			walk(d.OnFailure)
		}
	}
	walk(&r.Decision)
	if r.AfterRollback != nil {
		walk(r.AfterRollback)
	}
	return out
}

// in builds a routing input: a message with BackoutCount count on ORDERS.IN
// (BOTHRESH thresh, BOQNAME boq), QM1 with DEADQ QM1.DEADQ.
func in(style Style, count, thresh int32, boq string) RouteInput {
	md := mqfmt.NewMQMD()
	md.BackoutCount = count
	md.Persistence = mqfmt.PerPersistent
	md.Format = mqfmt.FmtString
	return RouteInput{
		Message:  RouteMessage{MD: md, Length: 100},
		Queue:    InputQueue{Name: "ORDERS.IN", Base: "ORDERS.IN", BackoutThresh: thresh, BackoutQName: boq, MaxMsgLen: 4194304},
		QMgr:     mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ", MaxMsgLen: 4194304},
		Consumer: ConsumerSpec{Style: style},
	}
}

// with applies edits to a routing input.
func with(r RouteInput, edits ...func(*RouteInput)) RouteInput {
	for _, e := range edits {
		e(&r)
	}
	return r
}

func report(opts int32) func(*RouteInput) {
	return func(r *RouteInput) { r.Message.MD.Report = opts }
}

func facts(m FactMap) func(*RouteInput) {
	return func(r *RouteInput) { r.Facts = m }
}

func outcome(o Outcome) func(*RouteInput) {
	return func(r *RouteInput) { r.Consumer.Outcome = o }
}

func persistence(p int32) func(*RouteInput) {
	return func(r *RouteInput) { r.Message.MD.Persistence = p }
}

func local(maxDepth, depth int32) QueueFacts {
	return QueueFacts{Known: true, Exists: true, Type: mqwatch.QLocal, MaxDepth: maxDepth, Depth: depth, Full: depth >= maxDepth, MaxMsgLen: 4194304}
}

func full() QueueFacts { return local(5000, 5000) }

func inhibited() QueueFacts {
	f := local(5000, 0)
	f.PutInhibited = true
	return f
}

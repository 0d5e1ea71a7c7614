package model

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

var causeAt = time.Date(2026, 3, 9, 21, 30, 0, 0, time.UTC)

// loopState is QM1 with ORDERS.BO at depth/max and a requeue whose 22
// messages came back because ORDERS.BO was full.
func loopState(depth, max int32) (*State, *QMgrState) {
	s := New(time.Now, time.Second)
	s.Journal = journal.New()
	q := s.QMgr("QM1")
	q.acts = s.Journal
	q.Queues["ORDERS.BO"] = &QueueState{View: mqwatch.QueueView{HasStatus: true, Role: mqwatch.RoleBOQ,
		Info: mqwatch.QueueInfo{Name: "ORDERS.BO", MaxDepth: max}, Status: mqwatch.QueueStatus{Name: "ORDERS.BO", Depth: depth}}}
	res := ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, Queue: "SYSTEM.DEAD.LETTER.QUEUE"}},
		Done: 22, Verify: &ops.OpVerify{Watched: 22, CameBack: 22, Within: 4 * time.Second, Where: "SYSTEM.DEAD.LETTER.QUEUE", Started: causeAt,
			Causes: []ops.OpCount{{Cause: "2053: ORDERS.BO full (40/40)", Reason: 2053, Queue: "ORDERS.BO", Count: 22}}}}
	noteRun(s, "QM1", &res)
	return s, q
}

func r10f(q *QMgrState, now time.Time) *Alert {
	for _, a := range q.loopAlerts(now) {
		if a.Rule == "R10f" {
			return &a
		}
	}
	return nil
}

func TestR10f_FollowsItsCause(t *testing.T) {
	cases := []struct {
		name       string
		depth, max int32
		fix        bool
		sev        actions.Severity
		says       string
	}{
		{"R10f_cause_still_there_is_an_alarm", 40, 40, false, actions.Critical, "came back"},
		{"R10f_cause_gone_says_so", 40, 5000, false, actions.Info, "cause gone: ORDERS.BO no longer full (40/5000): run it again"},
		{"R10f_cause_fixed_names_who", 40, 5000, true, actions.Info, "cause fixed at 21:31 by alice (MAXDEPTH(40) → MAXDEPTH(5000)): run it again"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, q := loopState(tc.depth, tc.max)
			if tc.fix {
				s.Journal.Append(journal.Entry{At: causeAt.Add(time.Minute), Kind: journal.Fix, User: "alice (ssh key SHA256:x)", QMgr: "QM1",
					Queue: "ORDERS.BO", Steps: []journal.Step{{MQSC: "ALTER QLOCAL(ORDERS.BO) MAXDEPTH(5000)", Before: "MAXDEPTH(40)", After: "MAXDEPTH(5000)", Applied: true}}})
			}
			a := r10f(q, causeAt.Add(2*time.Minute))
			if a == nil || a.Severity != tc.sev || !strings.Contains(a.Text, tc.says) {
				t.Fatalf("R10f %+v, want %s saying %q", a, tc.sev.Label(), tc.says)
			}
		})
	}
}

// Two runs whose messages came back are two alerts, each since its own run.
func TestR10f_EachRunIsItsOwnAlert(t *testing.T) {
	s, q := loopState(40, 40)
	later := causeAt.Add(10 * time.Minute)
	res := ops.OpResult{Plan: ops.OpPlan{Request: ops.OpRequest{Op: ops.OpRequeue, Queue: "SYSTEM.DEAD.LETTER.QUEUE"}},
		Done: 3, Verify: &ops.OpVerify{Watched: 3, CameBack: 3, Where: "SYSTEM.DEAD.LETTER.QUEUE", Started: later}}
	noteRun(s, "QM1", &res)
	as := q.loopAlerts(later.Add(time.Minute))
	if len(as) != 2 || as[0].Key() == as[1].Key() {
		t.Fatalf("alerts %+v: want two, told apart", as)
	}
}

// A consumer that stopped getting because someone here set GET(DISABLED)
// is that inhibit, not a new alarm; enabled again, it is an alarm again.
func TestR4f_AGetInhibitSetHereExplainsTheStall(t *testing.T) {
	s, q := loopState(0, 40)
	out := []Alert{{Severity: actions.Critical, Rule: "R4f", QMgr: "QM1", Queue: "ORDERS.IN", Text: "consumer stalled: 1 consumer(s) open, no get for 2m"},
		{Severity: actions.Warning, QMgr: "QM1", Queue: "ORDERS.IN", Text: "cannot read messages: MQGET: MQRC_GET_INHIBITED (2016)"}}
	inhibit := func(v string, at time.Time) {
		s.Journal.Append(journal.Entry{At: at, Kind: journal.Inhibit, User: "alice", QMgr: "QM1", Queue: "ORDERS.IN",
			Steps: []journal.Step{{MQSC: "ALTER QLOCAL(ORDERS.IN) GET(" + v + ")", Applied: true}}})
	}
	inhibit("DISABLED", causeAt.Add(time.Minute))
	got := append([]Alert(nil), out...)
	q.explainedByActs(got)
	for _, a := range got {
		if a.Severity != actions.Info || !strings.HasPrefix(a.Text, "GET(DISABLED) by alice at 21:31: ") {
			t.Errorf("%+v: want it explained by alice's inhibit", a)
		}
	}
	inhibit("ENABLED", causeAt.Add(2*time.Minute))
	got = append([]Alert(nil), out...)
	q.explainedByActs(got)
	if got[0].Severity != actions.Critical {
		t.Errorf("%+v: GET is enabled again, the stall is an alarm", got[0])
	}
}

package model

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// routeState is QM1 with ORDERS.IN (BOTHRESH 3, BOQ ORDERS.BO), PAYMENTS.IN
// whose BOQNAME is the DEADQ itself, and REFUNDS.IN and CREDITS.IN sharing
// SHARED.BO.
func routeState(t *testing.T) *QMgrState {
	t.Helper()
	b := &snapBuilder{views: []mqwatch.QueueView{
		local("ORDERS.IN", 0, 5000, 3, "ORDERS.BO"),
		local("ORDERS.BO", 0, 5000, 0, ""),
		local("PAYMENTS.IN", 0, 5000, 2, "DLQ"),
		local("REFUNDS.IN", 0, 5000, 4, "SHARED.BO"),
		local("CREDITS.IN", 0, 5000, 4, "SHARED.BO"),
		local("SHARED.BO", 0, 5000, 0, ""),
		local("DLQ", 0, 5000, 0, ""),
	}}
	st := New(nil, 0)
	st.Fold(b.snap(t0))
	return st.QMgr("QM1")
}

func TestR10_RoutePredictionsDescribeTheMessageAsRequeued(t *testing.T) {
	deadLetter := mqwatch.Summary{HasDLH: true, DLHReason: int32(mqfmt.RCQFull), DLHDestQ: "ORDERS.IN", DLHDestQMgr: "QM1",
		BackoutCount: 7, Length: 300, HasRFH2: true}
	jmsMoved := mqwatch.Summary{BackoutCount: 5, HasRFH2: true, JMSDst: "queue:///PAYMENTS.IN", Length: 100}
	tests := []struct {
		name, queue string
		s           mqwatch.Summary
		want        []string
		notWant     []string
	}{
		{"R10b_DEADQ_message_arrives_with_BackoutCount_0_whatever_its_copy_shows", "DLQ", deadLetter,
			[]string{"R10b on the DEADQ: a requeue puts it back on ORDERS.IN", "R1a BackoutCount 0"}, []string{"BackoutCount 7", "R1e"}},
		{"R10c_BOQ_message_arrives_with_BackoutCount_0", "ORDERS.BO", mqwatch.Summary{BackoutCount: 9, HasRFH2: true},
			[]string{"R10c on a BOQ: a requeue returns it to ORDERS.IN", "R1a BackoutCount 0"}, []string{"BackoutCount 9", "R1e"}},
		{"R10c_DEADQ_that_is_a_BOQNAME_holds_JMS_moved_messages_predicted_as_BOQ_messages", "DLQ", jmsMoved,
			[]string{"R10c on the DEADQ, which is the BOQNAME of PAYMENTS.IN, without an MQDLH", "returns it to PAYMENTS.IN", "R1a BackoutCount 0"},
			[]string{"BackoutCount 5", "resolve input queue DLQ"}},
		{"R10c_shared_BOQ_follows_the_JMS_destination_that_names_one_of_its_inputs", "SHARED.BO",
			mqwatch.Summary{BackoutCount: 4, HasRFH2: true, JMSDst: "queue:///REFUNDS.IN"},
			[]string{"returns it to REFUNDS.IN", "R1a BackoutCount 0"}, nil},
		{"R10c_shared_BOQ_without_a_JMS_destination_asks", "SHARED.BO", mqwatch.Summary{BackoutCount: 4},
			[]string{"serves 2 input queues"}, nil},
		{"input_queue_message_keeps_its_own_BackoutCount", "ORDERS.IN", mqwatch.Summary{BackoutCount: 3},
			[]string{"R1e BackoutCount 3 >= BOTHRESH 3"}, nil},
	}
	q := routeState(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(q.Route(tt.queue, &tt.s), "\n")
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("prediction lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("prediction has %q:\n%s", w, got)
				}
			}
		})
	}
}

func TestR10c_DEADQMessagesWithoutMQDLHGroupByTheirInputQueue(t *testing.T) {
	sums := []mqwatch.Summary{
		dl(1, 2085, "INVOICE.IN"),
		{JMSDst: "queue:///PAYMENTS.IN", HasRFH2: true, PutApplName: "payments"},
		{JMSDst: "queue://QM1/PAYMENTS.IN?persistence=2", HasRFH2: true, PutApplName: "payments"},
	}
	var inv *mqwatch.Inventory
	inv = inv.Append(sums...)
	gs := BuildGroups("DLQ", true, inv)
	got := counts(gs, DimReasonDest)
	if got[GroupKey{DestQ: "PAYMENTS.IN"}] != 2 || got[GroupKey{Reason: 2085, DestQ: "INVOICE.IN", DestQMgr: "QM2"}] != 1 {
		t.Fatalf("groups %v: the JMS-moved messages belong together under PAYMENTS.IN", got)
	}
	for i := range sums {
		for _, d := range []Dim{DimReasonDest, DimDest} {
			if !InGroup(d, KeyOf(d, &sums[i]), &sums[i]) {
				t.Errorf("%v: message %d is not in its own group", d, i)
			}
		}
	}
}

// TestOwnPCFRepliesGroupApart: a dead-lettered PCF reply to this tool's
// reply queue groups apart, labelled, never with an application's dead letters.
func TestOwnPCFRepliesGroupApart(t *testing.T) {
	app := mqwatch.Summary{HasDLH: true, DLHReason: 2085, DLHDestQ: "POISONWATCH.REPLY", DLHPutAppl: "amqzlaa0", PutApplName: "amqzlaa0"}
	own := app
	own.ToolReply = true
	if KeyOf(DimAppl, &app) == KeyOf(DimAppl, &own) {
		t.Fatal("an own PCF reply groups with application dead letters")
	}
	if k := KeyOf(DimAppl, &own); k.Appl != OwnReplyAppl {
		t.Fatalf("own reply grouped as %q", k.Appl)
	}
}

// TestR6i_RouteShowsTheLibertyMDBPause: an asf MDB whose activation
// specification sets maxSequentialDeliveryFailures pauses before the BOQ
// move when N + 1 <= BOTHRESH, and the route says so.
func TestR6i_RouteShowsTheLibertyMDBPause(t *testing.T) {
	q := routeState(t)
	q.Styles = map[string]actions.Style{"ORDERS.IN": actions.ASF}
	s := mqwatch.Summary{BackoutCount: 1}
	if got := strings.Join(q.Route("ORDERS.IN", &s), "\n"); strings.Contains(got, "R6i") {
		t.Fatalf("without the option: %s", got)
	}
	q.PauseAfter = map[string]int32{"ORDERS.IN": 1} // maxSequentialDeliveryFailures 0
	got := strings.Join(q.Route("ORDERS.IN", &s), "\n")
	if !strings.Contains(got, "R6i") || !strings.Contains(got, "pauses the MDB") {
		t.Fatalf("route %s: want the R6i pause", got)
	}
}

package actions

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func TestRouteASF(t *testing.T) {
	deadqFull := facts(FactMap{"QM1.DEADQ": full()})
	replyTo := func(r *RouteInput) { r.Message.MD.ReplyToQ, r.Message.MD.ReplyToQMgr = "APP.REPLY", "QM2" }
	runRouteCases(t, []routeCase{
		{name: "R6a_asf_poison_without_BOQ_dead_letters_with_2362",
			in: in(ASF, 3, 3, ""), action: MoveToDeadQ, queue: "QM1.DEADQ", reason: mqfmt.RCBackoutThresholdReached, rules: []string{"R2b", "R6a", "R6f"},
			check: func(t *testing.T, r Routing) {
				if r.Decision.Report != nil {
					t.Error("report planned without an MQRO_EXCEPTION option")
				}
			}},
		{name: "R6a_asf_BOQ_full_dead_letters_with_the_put_failure_reason",
			in: with(in(ASF, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": full()})), action: MoveToDeadQ, reason: mqfmt.RCQFull, rules: []string{"R2a", "R6", "R6a"}},
		{name: "R6b_asf_discard_msg_discards",
			in: with(in(ASF, 3, 3, ""), report(mqfmt.RODiscardMsg)), action: Discard, rules: []string{"R6b"}},
		{name: "R6c_asf_exception_reports_the_MQMD_only",
			in: with(in(ASF, 3, 3, ""), report(mqfmt.ROException), replyTo), action: MoveToDeadQ, rules: []string{"R6a", "R6c", "R6g"},
			check: wantReport(mqfmt.ROException, "APP.REPLY", "QM2", mqfmt.RCBackoutThresholdReached)},
		{name: "R6d_asf_exception_with_data_reports_headers_and_100_bytes",
			in: with(in(ASF, 3, 3, ""), report(mqfmt.ROExceptionWithData), replyTo), action: MoveToDeadQ, rules: []string{"R6d"},
			check: wantReport(mqfmt.ROExceptionWithData, "APP.REPLY", "QM2", mqfmt.RCBackoutThresholdReached)},
		{name: "R6e_asf_exception_with_full_data_reports_everything",
			in: with(in(ASF, 3, 3, ""), report(mqfmt.ROExceptionWithFullData), replyTo), action: MoveToDeadQ, rules: []string{"R6e"},
			check: wantReport(mqfmt.ROExceptionWithFullData, "APP.REPLY", "QM2", mqfmt.RCBackoutThresholdReached)},
		{name: "R6b_R6c_asf_discard_with_exception_discards_and_reports",
			in: with(in(ASF, 3, 3, ""), report(mqfmt.RODiscardMsg|mqfmt.ROException), replyTo), action: Discard, rules: []string{"R6b", "R6c"},
			check: wantReport(mqfmt.ROException, "APP.REPLY", "QM2", mqfmt.RCBackoutThresholdReached)},
		{name: "R6f_asf_no_exception_option_no_report",
			in: with(in(ASF, 3, 3, ""), report(mqfmt.ROCOA)), action: MoveToDeadQ, rules: []string{"R6f"}},
		{name: "R6g_asf_pass_msg_id_and_pass_correl_id_are_explained",
			in: with(in(ASF, 3, 3, ""), report(mqfmt.ROException|mqfmt.ROPassMsgId|mqfmt.ROPassCorrelId), replyTo), action: MoveToDeadQ, rules: []string{"R6g"},
			check: func(t *testing.T, r Routing) {
				if !containsText(r.Decision.Report.Why, "MQRO_PASS_MSG_ID") || !containsText(r.Decision.Report.Why, "MQRO_PASS_CORREL_ID") {
					t.Errorf("R6g lines = %v", r.Decision.Report.Why)
				}
			}},
		{name: "R6g_asf_blank_ReplyToQ_report_goes_to_DEADQ",
			in: with(in(ASF, 3, 3, ""), report(mqfmt.ROException)), action: MoveToDeadQ, rules: []string{"R6g"},
			check: func(t *testing.T, r Routing) {
				if !containsText(r.Decision.Report.Why, "ReplyToQ is blank") {
					t.Errorf("R6g lines = %v", r.Decision.Report.Why)
				}
			}},
		{name: "R6_asf_unparseable_message_removed_with_2364",
			in:     with(in(ASF, 0, 3, "ORDERS.BO"), func(r *RouteInput) { r.Message.Unparseable = true }),
			action: MoveToDeadQ, reason: mqfmt.RCJMSFormatError, rules: []string{"R6", "R6a"}},
		{name: "R6_asf_unmatched_message_removed_with_2363",
			in:     with(in(ASF, 0, 3, "ORDERS.BO"), func(r *RouteInput) { r.Message.Unmatched = true }),
			action: MoveToDeadQ, reason: mqfmt.RCMsgNotMatched, rules: []string{"R6", "R6a"}},
		{name: "R6_unparseable_flag_ignored_by_a_MessageListener",
			in: with(in(Async, 0, 3, "ORDERS.BO"), func(r *RouteInput) { r.Message.Unparseable = true }), action: Deliver},
		{name: "R4e_asf_nonpersistent_deadq_put_fails_discards_without_report",
			in: with(in(ASF, 3, 3, ""), deadqFull, persistence(mqfmt.PerNotPersistent), report(mqfmt.ROException)), action: Discard, rules: []string{"R4e"},
			check: func(t *testing.T, r Routing) {
				if r.Decision.Effective().Report != nil {
					t.Error("R4e discards without a report message")
				}
			}},
		{name: "R4f_asf_persistent_deadq_put_fails_stops_all_connection_consumers",
			in: with(in(ASF, 3, 3, ""), deadqFull), action: StopConsumers, queue: "ORDERS.IN", rules: []string{"R4f"}},
		{name: "R4f_asf_persistence_as_queue_default_uses_DEFPSIST",
			in:     with(in(ASF, 3, 3, ""), deadqFull, persistence(mqfmt.PerPersistenceAsDef), func(r *RouteInput) { r.Queue.DefPersistent = true }),
			action: StopConsumers},
		{name: "R6h_asf_BOQ_and_DEADQ_put_inhibited_stops_consumers",
			in:     with(in(ASF, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": inhibited(), "QM1.DEADQ": inhibited()})),
			action: StopConsumers, rules: []string{"R2a", "R6", "R6a", "R4f"}},
		{name: "R6h_asf_no_DEADQ_nonpersistent_discards",
			in:     with(in(ASF, 3, 3, ""), persistence(mqfmt.PerNotPersistent), func(r *RouteInput) { r.QMgr.DeadQ = "" }),
			action: Discard, rules: []string{"R6a", "R4e"}},
	})
}

func wantReport(data int32, toQ, toQMgr string, fb mqfmt.Reason) func(t *testing.T, r Routing) {
	return func(t *testing.T, r Routing) {
		t.Helper()
		p := r.Decision.Effective().Report
		if p == nil {
			t.Fatal("no report planned")
		}
		if p.Data != data || p.ToQ != toQ || p.ToQMgr != toQMgr || p.Feedback != fb {
			t.Errorf("report = %+v, want data %#x to %s on %s feedback %d", *p, data, toQ, toQMgr, fb)
		}
	}
}

func containsText(lines []Line, s string) bool {
	for _, l := range lines {
		if contains(l.Text, s) {
			return true
		}
	}
	return false
}

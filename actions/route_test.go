package actions

import (
	"slices"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestRouteDetection(t *testing.T) {
	runRouteCases(t, []routeCase{
		{name: "R1a_backout_count_zero_delivers_without_attribute_query",
			in: in(SyncTransacted, 0, 3, "ORDERS.BO"), action: Deliver, rules: []string{"R1a", "R1b", "R1d"},
			check: func(t *testing.T, r Routing) {
				if r.Decision.Why[0].Rule != "R1a" || len(r.Decision.Why) != 1 {
					t.Errorf("Why = %v, want only R1a (no inquiry at BackoutCount 0)", r.Decision.Why)
				}
				if r.AfterRollback == nil || r.AfterRollback.Fate != Deliver {
					t.Errorf("AfterRollback = %+v, want deliver at BackoutCount 1", r.AfterRollback)
				}
			}},
		{name: "R1b_first_redelivery_inquires_the_alias_base_queue",
			in: with(in(Async, 1, 3, "ORDERS.BO"), func(r *RouteInput) {
				r.Queue.Name, r.Queue.Path = "ORDERS.ALIAS", []string{"alias ORDERS.ALIAS", "base queue ORDERS.IN"}
			}),
			action: Deliver, rules: []string{"R1b", "R1d"},
			check: func(t *testing.T, r Routing) {
				if !strings.Contains(r.Decision.Why[0].Text, "inquires BOTHRESH 3 and BOQNAME ORDERS.BO on ORDERS.IN (alias ORDERS.ALIAS → base queue ORDERS.IN)") {
					t.Errorf("R1b line = %q", r.Decision.Why[0].Text)
				}
			}},
		{name: "R1b_cached_BOTHRESH_0_wins_over_altered_queue_and_warns",
			in:     with(in(Async, 5, 3, "ORDERS.BO"), func(r *RouteInput) { r.Consumer.Cached = &CachedAttrs{} }),
			action: LoopForever, rules: []string{"R1b", "R1c"}, warnRules: []string{"R1b"}},
		{name: "R1b_after_rollback_uses_the_attributes_cached_at_first_sight",
			in: in(Async, 1, 3, "ORDERS.BO"), action: Deliver,
			check: func(t *testing.T, r Routing) {
				if !strings.Contains(r.Decision.Why[0].Text, "inquires") || !strings.Contains(r.AfterRollback.Why[0].Text, "cached") {
					t.Errorf("first %q, after rollback %q", r.Decision.Why[0].Text, r.AfterRollback.Why[0].Text)
				}
			}},
		{name: "R1b_cached_attributes_used_instead_of_current",
			in: with(in(SyncNonTransacted, 4, 10, "NEW.BO"), func(r *RouteInput) {
				r.Consumer.Cached = &CachedAttrs{BackoutThresh: 3, BackoutQName: "OLD.BO"}
			}),
			action: MoveToBOQ, queue: "OLD.BO", rules: []string{"R1b", "R1e", "R2a"}, warnRules: []string{"R1b"}},
		{name: "R1b_cached_equal_to_current_gives_no_warning",
			in: with(in(SyncNonTransacted, 4, 3, "ORDERS.BO"), func(r *RouteInput) {
				r.Consumer.Cached = &CachedAttrs{BackoutThresh: 3, BackoutQName: "ORDERS.BO"}
			}),
			action: MoveToBOQ, queue: "ORDERS.BO", rules: []string{"R1b", "R1e"}},
		{name: "R1c_BOTHRESH_0_loops_forever",
			in: in(Async, 4000, 0, ""), action: LoopForever, queue: "ORDERS.IN", rules: []string{"R1b", "R1c"}},
		{name: "R1c_BOTHRESH_0_first_delivery_delivers_then_loops",
			in: in(SyncTransacted, 0, 0, ""), action: Deliver, rules: []string{"R1a", "R1c"},
			check: func(t *testing.T, r Routing) {
				if r.AfterRollback.Fate != LoopForever {
					t.Errorf("AfterRollback = %v, want loop forever", r.AfterRollback.Fate)
				}
			}},
		{name: "R1d_below_threshold_delivers_then_poison_after_rollback",
			in: in(Async, 2, 3, "ORDERS.BO"), action: Deliver, rules: []string{"R1d", "R1e", "R2a"},
			check: func(t *testing.T, r Routing) {
				if r.AfterRollback.Fate != MoveToBOQ {
					t.Errorf("AfterRollback = %v, want move to BOQ", r.AfterRollback.Fate)
				}
			}},
		{name: "R1e_at_threshold_is_poison",
			in: in(Async, 3, 3, "ORDERS.BO"), action: MoveToBOQ, queue: "ORDERS.BO", rules: []string{"R1e", "R2a"}},
		{name: "R1e_above_threshold_is_poison",
			in: in(SyncTransacted, 9, 3, "ORDERS.BO"), action: MoveToBOQ, rules: []string{"R1e"}},
		{name: "R1f_mqi_consumer_loops_even_with_BOTHRESH",
			in: in(MQI, 212, 5, "PAYMENTS.BO"), action: LoopForever, rules: []string{"R1f", "R8c"}},
		{name: "R1f_mqi_consumer_below_threshold_still_never_moves",
			in: in(MQI, 2, 5, "PAYMENTS.BO"), action: LoopForever, rules: []string{"R1f"}},
		{name: "R1f_mqi_consumer_with_BOTHRESH_0",
			in: in(MQI, 7, 0, ""), action: LoopForever, rules: []string{"R1f", "R1c"}},
		{name: "R1f_mqi_consumer_first_delivery_delivers_then_loops",
			in: in(MQI, 0, 5, "PAYMENTS.BO"), action: Deliver, rules: []string{"R1a", "R1f"},
			check: func(t *testing.T, r Routing) {
				if r.AfterRollback.Fate != LoopForever {
					t.Errorf("AfterRollback = %v, want loop forever", r.AfterRollback.Fate)
				}
			}},
	})
}

func TestRoutePoisonDestination(t *testing.T) {
	runRouteCases(t, []routeCase{
		{name: "R2a_BOQNAME_set_moves_to_BOQ",
			in: in(Async, 3, 3, "ORDERS.BO"), action: MoveToBOQ, queue: "ORDERS.BO", rules: []string{"R2a", "R5b", "R2b", "R4d"}},
		{name: "R2a_jms_message_keeps_its_RFH2_R5a",
			in:     with(in(Async, 3, 3, "ORDERS.BO"), func(r *RouteInput) { r.Message.HasRFH2 = true }),
			action: MoveToBOQ, rules: []string{"R2a", "R5a"}},
		{name: "R2a_BOQ_with_room_is_used",
			in: with(in(Async, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": local(5000, 10)})), action: MoveToBOQ, queue: "ORDERS.BO"},
		{name: "R2b_blank_BOQNAME_default_report_goes_to_DEADQ",
			in: in(Async, 3, 3, ""), action: MoveToDeadQ, queue: "QM1.DEADQ", reason: mqfmt.RCBackoutThresholdReached, rules: []string{"R2b"}},
		{name: "R2b_blank_BOQNAME_discard_msg_discards",
			in: with(in(Async, 3, 3, ""), report(mqfmt.RODiscardMsg)), action: Discard, rules: []string{"R2b"}},
		{name: "R2b_BOQ_full_falls_back_to_DEADQ",
			in: with(in(SyncTransacted, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": full()})),
			// IBM: the MQDLH Reason describes why the requeue to the BOQ failed.
			action: MoveToDeadQ, queue: "QM1.DEADQ", reason: mqfmt.RCQFull, rules: []string{"R2a", "R2b"},
			check: func(t *testing.T, r Routing) {
				if r.Decision.Fails != mqfmt.RCQFull {
					t.Errorf("BOQ Fails = %v, want MQRC_Q_FULL", r.Decision.Fails)
				}
			}},
		{name: "R2b_BOQ_put_inhibited_with_discard_msg_discards",
			in:     with(in(SyncNonTransacted, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": inhibited()}), report(mqfmt.RODiscardMsg|mqfmt.ROException)),
			action: Discard, rules: []string{"R2b"}},
		{name: "R2b_BOQ_missing_falls_back_to_DEADQ",
			in:     with(in(Async, 3, 3, "ORDERS.BOQ"), facts(FactMap{"ORDERS.BOQ": {Known: true}})),
			action: MoveToDeadQ, check: wantFails(mqfmt.RCUnknownObjectName)},
		{name: "R2b_BOQ_alias_with_missing_base_falls_back",
			in:     with(in(Async, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": {Known: true, Exists: true, Type: mqwatch.QAlias, BaseMissing: true}})),
			action: MoveToDeadQ, warnRules: []string{"R8b"}, check: wantFails(mqfmt.RCUnknownAliasBaseQ)},
		{name: "R2b_message_with_added_RFH2_too_big_for_BOQ",
			in: with(in(Async, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": local(5000, 0)}), func(r *RouteInput) {
				r.Message.Length = 4194304 - 10 // fits the input queue, not once R5b adds 36 bytes
			}),
			action: MoveToDeadQ, check: wantFails(mqfmt.RCMsgTooBigForQ)},
		{name: "R2b_jms_message_at_MAXMSGL_fits_BOQ_unchanged",
			in: with(in(Async, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": local(5000, 0)}), func(r *RouteInput) {
				r.Message.Length, r.Message.HasRFH2 = 4194304, true
			}),
			action: MoveToBOQ},
		{name: "R2c_BOTHRESH_without_BOQNAME_goes_straight_to_report_options",
			in: in(SyncNonTransacted, 5, 5, ""), action: MoveToDeadQ, rules: []string{"R1e", "R2b"}},
		{name: "R7b_put_authority_missing_on_BOQ_falls_back_to_DEADQ",
			in:     with(in(Async, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": {Known: true, Exists: true, Type: mqwatch.QLocal, PutDenied: true}})),
			action: MoveToDeadQ, check: wantFails(mqfmt.RCNotAuthorized)},
		{name: "R8b_BOQ_that_is_an_alias_warns",
			in:     with(in(Async, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": {Known: true, Exists: true, Type: mqwatch.QAlias, Resolved: "BO.LOCAL", MaxDepth: 10}})),
			action: MoveToBOQ, warnRules: []string{"R8b"}},
		{name: "R2b_no_DEADQ_defined_and_nontransacted_discards",
			in:     with(in(SyncNonTransacted, 3, 3, ""), func(r *RouteInput) { r.QMgr.DeadQ = "" }),
			action: Discard, rules: []string{"R2b", "R4c"}},
	})
}

func wantFails(rc mqfmt.Reason) func(t *testing.T, r Routing) {
	return func(t *testing.T, r Routing) {
		t.Helper()
		if r.Decision.Fails != rc {
			t.Errorf("first put Fails = %v, want %v", r.Decision.Fails, rc)
		}
	}
}

func TestRouteUnitsOfWorkAndDeadQFailures(t *testing.T) {
	deadqFull := facts(FactMap{"QM1.DEADQ": full()})
	runRouteCases(t, []routeCase{
		{name: "R3a_sync_transacted_move_is_inside_the_receive_unit_of_work",
			in: in(SyncTransacted, 3, 3, "ORDERS.BO"), action: MoveToBOQ, rules: []string{"R3a"}},
		{name: "R3a_sync_transacted_rollback_undoes_the_move_and_says_so",
			in: with(in(SyncTransacted, 3, 3, "ORDERS.BO"), outcome(OutcomeRollback)), action: MoveToBOQ,
			check: func(t *testing.T, r Routing) {
				if !containsText(r.Decision.Why, "returns to ORDERS.IN with BackoutCount 4") {
					t.Errorf("why %v", r.Decision.Why)
				}
			}},
		{name: "R3a_sync_nontransacted_move_is_inside_the_receive_unit_of_work",
			in: in(SyncNonTransacted, 3, 3, "ORDERS.BO"), action: MoveToBOQ, rules: []string{"R3a"}},
		{name: "R3b_async_move_is_outside_any_unit_of_work",
			in: in(Async, 3, 3, "ORDERS.BO"), action: MoveToBOQ, rules: []string{"R3b"}},
		{name: "R3b_asf_move_is_outside_any_unit_of_work",
			in: in(ASF, 3, 3, "ORDERS.BO"), action: MoveToBOQ, rules: []string{"R3b"}},
		{name: "R4a_sync_transacted_commit_discards_when_deadq_put_fails",
			in: with(in(SyncTransacted, 3, 3, ""), deadqFull, outcome(OutcomeCommit)), action: Discard, rules: []string{"R4a"}},
		{name: "R4b_sync_transacted_rollback_returns_to_input_when_deadq_put_fails",
			in: with(in(SyncTransacted, 3, 3, ""), deadqFull, outcome(OutcomeRollback)), action: ReturnToInput, queue: "ORDERS.IN", rules: []string{"R4b"}},
		{name: "R4_sync_transacted_unknown_outcome_shows_both_branches",
			in: with(in(SyncTransacted, 3, 3, ""), deadqFull), action: DependsOnOutcome, rules: []string{"R4a", "R4b"},
			check: func(t *testing.T, r Routing) {
				eff := r.Decision.Effective()
				if len(eff.Cases) != 2 || eff.Cases[0].Decision.Fate != Discard || eff.Cases[1].Decision.Fate != ReturnToInput {
					t.Errorf("cases = %+v", eff.Cases)
				}
			}},
		{name: "R4c_sync_nontransacted_deadq_put_fails_discards",
			in: with(in(SyncNonTransacted, 3, 3, ""), deadqFull), action: Discard, rules: []string{"R4c"}},
		{name: "R4c_sync_nontransacted_BOQ_and_deadq_both_fail_discards",
			in:     with(in(SyncNonTransacted, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": inhibited(), "QM1.DEADQ": full()})),
			action: Discard, rules: []string{"R2a", "R2b", "R4c"}},
		{name: "R4d_async_deadq_put_fails_returns_to_input",
			in: with(in(Async, 3, 3, ""), deadqFull), action: ReturnToInput, queue: "ORDERS.IN", rules: []string{"R4d"}},
		{name: "R4d_async_deadq_too_small_for_message_and_DLH_returns_to_input",
			in:     with(in(Async, 3, 3, ""), facts(FactMap{"QM1.DEADQ": {Known: true, Exists: true, Type: mqwatch.QLocal, MaxDepth: 10, MaxMsgLen: 200}})),
			action: ReturnToInput, rules: []string{"R4d"}, check: func(t *testing.T, r Routing) {
				if r.Decision.Fails != mqfmt.RCMsgTooBigForQ {
					t.Errorf("DEADQ Fails = %v, want 2030 (100 bytes + 172-byte MQDLH > 200)", r.Decision.Fails)
				}
			}},
	})
}

func TestRouteExplainCitesRules(t *testing.T) {
	in := in(Async, 3, 3, "ORDERS.BO")
	r, err := Route(&in)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Explain()
	for _, want := range []string{
		"R1e BackoutCount 3 >= BOTHRESH 3: poison",
		"R2a BOQNAME ORDERS.BO → move there",
		"if the put fails:",
		"  R2b Report has MQRO_DEAD_LETTER_Q (or neither option): move to the DEADQ QM1.DEADQ with an MQDLH, Reason = the reason code of the failed BOQ put",
		"    R4d async: the message is returned to ORDERS.IN and is poison again on the next delivery",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("Explain() lacks %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
}

func TestRouteExplainShowsPredictedFailure(t *testing.T) {
	in := with(in(Async, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": full()}))
	r, _ := Route(&in)
	want := "the put fails: MQRC_Q_FULL (2053): the target queue is at MAXDEPTH (ORDERS.BO is at MAXDEPTH 5000)"
	if got := r.Explain(); !slices.Contains(got, want) {
		t.Errorf("Explain() lacks %q:\n%s", want, strings.Join(got, "\n"))
	}
}

func TestRouteRejectsUnknownStyle(t *testing.T) {
	in := in(Style(99), 1, 1, "")
	if _, err := Route(&in); err == nil {
		t.Fatal("Route accepted style 99")
	}
}

func TestParseStyle(t *testing.T) {
	for s := SyncTransacted; s <= MQI; s++ {
		t.Run(s.String(), func(t *testing.T) {
			got, err := ParseStyle(strings.ToUpper(s.String()))
			if err != nil || got != s {
				t.Errorf("ParseStyle(%q) = %v, %v", s, got, err)
			}
		})
	}
	t.Run("unknown_name_is_an_error", func(t *testing.T) {
		if _, err := ParseStyle("listener"); err == nil {
			t.Error("no error")
		}
	})
}

package actions

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func policy(p DeliveryCountPolicy) func(*RouteInput) {
	return func(r *RouteInput) { r.Consumer.Policy = p }
}

func TestRouteDeliveryCount(t *testing.T) {
	dc := func(count int32, p DeliveryCountPolicy) RouteInput {
		return with(in(DeliveryCount, count, 0, ""), policy(p))
	}
	runRouteCases(t, []routeCase{
		{name: "R9_first_delivery_delivers",
			in: dc(0, DeliveryCountPolicy{Threshold: 5}), action: Deliver, rules: []string{"R9"}},
		{name: "R9_below_threshold_delivers",
			in: dc(3, DeliveryCountPolicy{Threshold: 5}), action: Deliver, rules: []string{"R9", "R9a"}},
		{name: "R9a_delivery_count_is_backout_count_plus_one",
			in: dc(4, DeliveryCountPolicy{Threshold: 5, OnPoison: PoisonDiscard}), action: Discard, rules: []string{"R9a", "R9b"},
			check: func(t *testing.T, r Routing) {
				if !contains(r.Decision.Why[0].Text, "JMSXDeliveryCount 5 >= threshold 5") {
					t.Errorf("why = %v", r.Decision.Why)
				}
			}},
		{name: "R9a_threshold_above_64_never_fires_and_loops",
			in: dc(500, DeliveryCountPolicy{Threshold: 100, OnPoison: PoisonDiscard}), action: LoopForever, rules: []string{"R9a"}, warnRules: []string{"R9a"}},
		{name: "R9a_threshold_64_fires_at_the_cap",
			in: dc(500, DeliveryCountPolicy{Threshold: 64, OnPoison: PoisonDiscard}), action: Discard, rules: []string{"R9a"}},
		{name: "R9a_no_threshold_loops",
			in: dc(2, DeliveryCountPolicy{}), action: LoopForever, rules: []string{"R9a"}},
		{name: "R9b_application_rolls_back",
			in: dc(9, DeliveryCountPolicy{Threshold: 5, OnPoison: PoisonRollback}), action: ReturnToInput, queue: "ORDERS.IN", rules: []string{"R9b"}},
		{name: "R9b_application_moves_to_special_queue",
			in: dc(9, DeliveryCountPolicy{Threshold: 5, OnPoison: PoisonMove, SpecialQueue: "FAILED"}), action: MoveToQueue, queue: "FAILED", rules: []string{"R9b"}},
		{name: "R9b_special_queue_full_rolls_back_to_input",
			in:     with(dc(9, DeliveryCountPolicy{Threshold: 5, OnPoison: PoisonMove, SpecialQueue: "FAILED"}), facts(FactMap{"FAILED": full()})),
			action: ReturnToInput, check: wantFails(mqfmt.RCQFull)},
		{name: "R9b_move_without_special_queue_fails",
			in: dc(9, DeliveryCountPolicy{Threshold: 5, OnPoison: PoisonMove}), action: ReturnToInput, check: wantFails(mqfmt.RCUnknownObjectName)},
		{name: "R9b_application_discards",
			in: dc(9, DeliveryCountPolicy{Threshold: 5, OnPoison: PoisonDiscard}), action: Discard, rules: []string{"R9b"}},
		{name: "R9c_max_delivery_failures_pauses_the_MDB",
			in: dc(3, DeliveryCountPolicy{Threshold: 10, MaxDeliveryFailures: 3}), action: PauseConsumer, queue: "ORDERS.IN", rules: []string{"R9c"}},
		{name: "R9c_below_max_delivery_failures_delivers_then_pauses",
			in: dc(2, DeliveryCountPolicy{MaxDeliveryFailures: 3}), action: Deliver, rules: []string{"R9c"},
			check: func(t *testing.T, r Routing) {
				if r.AfterRollback.Fate != PauseConsumer {
					t.Errorf("AfterRollback = %v, want pause", r.AfterRollback.Fate)
				}
			}},
		{name: "R9c_pause_comes_before_an_unusable_threshold",
			in: dc(70, DeliveryCountPolicy{Threshold: 100, MaxDeliveryFailures: 3}), action: PauseConsumer, warnRules: []string{"R9a"}},
	})
}

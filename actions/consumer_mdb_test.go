package actions

import (
	"errors"
	"testing"
)

// TestR6i_LibertyMDBPausesAfterSequentialFailures: an asf MDB whose
// activation specification sets maxSequentialDeliveryFailures pauses after
// that many + 1 failures in a row; when that comes before BOTHRESH the
// message stays on the input queue instead of reaching the BOQ.
func TestR6i_LibertyMDBPausesAfterSequentialFailures(t *testing.T) {
	cases := []struct {
		name        string
		maxSeq      int32 // maxSequentialDeliveryFailures; -1 the default
		polls       int
		wantPaused  bool
		wantInput   int
		wantBOQ     int
		wantBackout int32
	}{
		{"R6i_0_pauses_on_the_first_failure", 0, 1, true, 1, 0, 1},
		{"R6i_1_pauses_on_the_second", 1, 2, true, 1, 0, 2},
		{"R6i_at_BOTHRESH_minus_1_pauses_before_the_move", 2, 3, true, 1, 0, 3},
		{"R6i_BOTHRESH_or_more_the_poison_moves_first", 3, 4, false, 0, 1, 0},
		{"R6i_default_minus_1_never_pauses", -1, 4, false, 0, 1, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newQM(t, "")
			c := f.consumer(ConsumerOptions{Style: ASF, Queue: "ORDERS.IN", PauseAfter: max(tc.maxSeq+1, 0)})
			f.putText("ORDERS.IN")
			f.pollN(c, tc.polls, failing)
			if c.Paused() != tc.wantPaused {
				t.Fatalf("paused %v, want %v", c.Paused(), tc.wantPaused)
			}
			if tc.wantPaused {
				if _, err := c.Poll(f.ctx, succeeding); !errors.Is(err, ErrPaused) {
					t.Fatalf("poll while paused: %v", err)
				}
			}
			in := f.browse("ORDERS.IN")
			if len(in) != tc.wantInput || f.depth("ORDERS.BO") != tc.wantBOQ {
				t.Fatalf("ORDERS.IN %d, ORDERS.BO %d; want %d and %d", len(in), f.depth("ORDERS.BO"), tc.wantInput, tc.wantBOQ)
			}
			if len(in) == 1 && in[0].MD.BackoutCount != tc.wantBackout {
				t.Errorf("BackoutCount %d, want %d", in[0].MD.BackoutCount, tc.wantBackout)
			}
			// The route predicts the same from the message alone.
			if len(in) == 1 {
				r, err := Route(&RouteInput{Message: RouteMessage{MD: in[0].MD}, Queue: InputQueue{Name: "ORDERS.IN", Base: "ORDERS.IN", BackoutThresh: 3, BackoutQName: "ORDERS.BO"},
					Consumer: ConsumerSpec{Style: ASF, PauseAfter: tc.maxSeq + 1}})
				if err != nil || r.Decision.Fate != PauseConsumer || r.Decision.Why[0].Rule != "R6i" {
					t.Errorf("route: %+v %v", r.Decision, err)
				}
			}
		})
	}
}

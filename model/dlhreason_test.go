package model

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestDLHReasonTextSaysTheBOQWasFullThenAndHowItIsNow: the MQDLH of a
// queue-full dead letter its consumer wrote tells how the BOQ was when the
// message was dead-lettered; the depth shown is now's, and after the BOQ
// was enlarged "full (43/5000 now)" would contradict itself.
func TestDLHReasonTextSaysTheBOQWasFullThenAndHowItIsNow(t *testing.T) {
	for _, tc := range []struct {
		name        string
		depth, max  int32
		want, wrong string
	}{
		{"enlarged", 43, 5000, "backout queue ORDERS.BO was full when dead-lettered; now 43/5000:", "still full"},
		{"still_full", 40, 40, "backout queue ORDERS.BO was full when dead-lettered; now 40/40, still full:", "full (40/40 now)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(func() time.Time { return t0 }, 2*time.Second)
			b := &snapBuilder{views: []mqwatch.QueueView{
				local("ORDERS.EXPRESS.IN", 0, 5000, 3, "ORDERS.BO"), local("ORDERS.BO", tc.depth, tc.max, 0, "")}}
			s.Fold(b.snap(t0))
			got := s.QMgr("QM1").DLHReasonText(2053, "ORDERS.EXPRESS.IN", "QM1", "ExpressMDB")
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.wrong) {
				t.Fatalf("reason text %q, want %q", got, tc.want)
			}
		})
	}
}

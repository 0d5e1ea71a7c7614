package ops

import (
	"fmt"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestR10a_TwinsGoInOneBatch: items that share an identity go in the batch
// of the first one, whether their listed bodies differ (twins told apart by
// their data) or not (numbered by occurrence), so no two workers commit
// twins in an order of their own; other messages are cut by size.
func TestR10a_TwinsGoInOneBatch(t *testing.T) {
	twin := msgIdentity{msgID: [24]byte{1}, correlID: [24]byte{2}, put: 42, pos: mqwatch.GroupPos{MsgSeqNumber: 1}}
	other := func(n byte) msgIdentity {
		id := twin
		id.msgID[1] = n
		return id
	}
	cases := []struct {
		name    string
		ids     []msgIdentity
		bodies  []string
		wantNth []int
		want    string
	}{
		{"bodies_differ", []msgIdentity{twin, twin, other(1)}, []string{"twin 2", "twin 1", "x"},
			[]int{0, 0, 0}, "[[0 1] [2]]"},
		{"bodies_equal", []msgIdentity{twin, other(1), twin}, []string{"same", "x", "same"},
			[]int{0, 0, 1}, "[[0 2] [1]]"},
		{"no_twins", []msgIdentity{other(1), other(2), other(3)}, []string{"a", "a", "a"},
			[]int{0, 0, 0}, "[[0] [1] [2]]"},
		{"three_kinds", []msgIdentity{other(1), twin, other(2), twin, twin}, []string{"a", "p", "b", "q", "p"},
			[]int{0, 0, 0, 0, 1}, "[[0] [1 3 4] [2]]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &opRun{p: &opPlanned{ids: c.ids}}
			var idxs []int
			for i, b := range c.bodies {
				r.items = append(r.items, OpItem{Kind: WouldAct, Msg: mqwatch.Summary{BodyPrefix: []byte(b)}})
				idxs = append(idxs, i)
			}
			nth, dups := r.occurrences()
			if fmt.Sprint(nth) != fmt.Sprint(c.wantNth) {
				t.Errorf("occurrences %v, want %v", nth, c.wantNth)
			}
			if got := fmt.Sprint(batchesOf(idxs, 1, c.ids, dups)); got != c.want {
				t.Errorf("batches %s, want %s", got, c.want)
			}
		})
	}
}

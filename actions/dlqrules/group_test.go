package dlqrules

import (
	"reflect"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// AddN is what the triage's per-class matching uses: it must leave a group
// exactly as n calls of Add, ties to the lowest rule included.
func TestGroupMatchAddNEqualsRepeatedAdd(t *testing.T) {
	type add struct {
		m Match
		n int
	}
	tests := []struct {
		name string
		adds []add
	}{
		{"one rule", []add{{Match{Rule: 2, Certain: true}, 5}}},
		{"no rule wins", []add{{Match{Rule: 1, Certain: true}, 2}, {Match{Rule: -1, Certain: true}, 3}}},
		{"tie goes to the lower rule", []add{{Match{Rule: 3, Certain: true}, 4}, {Match{Rule: 1, Certain: true}, 4}}},
		{"tie keeps the lower rule", []add{{Match{Rule: 1, Certain: true}, 4}, {Match{Rule: 3, Certain: true}, 4}}},
		{"uncertain counted", []add{{Match{Rule: 0}, 3}, {Match{Rule: 0, Certain: true}, 1}}},
		{"overtaken", []add{{Match{Rule: 0, Certain: true}, 2}, {Match{Rule: 5, Certain: true}, 7}, {Match{Rule: 0, Certain: true}, 6}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			one, bulk := NewGroupMatch(), NewGroupMatch()
			for _, a := range tt.adds {
				for i := 0; i < a.n; i++ {
					one.Add(a.m)
				}
				bulk.AddN(a.m, a.n)
			}
			if !reflect.DeepEqual(one, bulk) {
				t.Fatalf("AddN gave %+v, Add %+v", bulk, one)
			}
		})
	}
}

// The triage matches a table once per class of messages: that is only right
// while a summary's facts come from its class alone.
func TestSummaryFactsAreClassFacts(t *testing.T) {
	a := mqwatch.Summary{HasDLH: true, DLHReason: 2085, DLHDestQ: "INVOICE.IN", DLHDestQMgr: "QM2",
		DLHFormat: "MQSTR", PutApplName: "amqrmppa", UserId: "mqm", Persistent: true}
	b := a
	b.MsgId[0], b.CorrelId[0] = 1, 2
	b.PutTime, b.DLHPutTime = time.Now(), time.Now()
	b.BackoutCount, b.Length, b.Expiry, b.BodyOffset, b.Arrival = 9, 99, 999, 9999, 99999
	b.BodyPrefix = []byte("body")
	if a.Class() != b.Class() {
		t.Fatal("the edit changed the class")
	}
	if fa, fb := FactsOfSummary(&a), FactsOfSummary(&b); !reflect.DeepEqual(fa, fb) {
		t.Fatalf("facts differ within a class: %+v vs %+v", fa, fb)
	}
}

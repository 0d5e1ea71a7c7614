package model

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func dl(id int, reason int32, dest string) mqwatch.Summary {
	s := mqwatch.Summary{HasDLH: true, DLHReason: reason, DLHDestQ: dest, DLHDestQMgr: "QM2", PutTime: t0.Add(time.Duration(id) * time.Second)}
	s.MsgId[0], s.MsgId[1] = byte(id), byte(id>>8)
	return s
}

func counts(gs *GroupSet, d Dim) map[GroupKey]int {
	out := map[GroupKey]int{}
	for _, g := range gs.Groups(d) {
		out[g.Key] = g.Count
	}
	return out
}

func TestGroupsIncrementalEqualsRebuild(t *testing.T) {
	var all []mqwatch.Summary
	for i := 0; i < 300; i++ {
		if i%10 == 0 {
			all = append(all, dl(i, 2053, "AUDIT.IN"))
		} else {
			all = append(all, dl(i, 2085, "INVOICE.IN"))
		}
	}
	inv := (*mqwatch.Inventory)(nil).Append(all[:100]...)
	gs := BuildGroups("DLQ", true, inv)
	inv = inv.Append(all[100:]...).DropHead(20)
	gs.apply(mqwatch.InventoryDelta{Added: all[100:], Dropped: all[:20]}, inv, t0, true)
	want := BuildGroups("DLQ", true, inv)
	for d := Dim(0); d < numDims; d++ {
		got, exp := counts(gs, d), counts(want, d)
		if len(got) != len(exp) {
			t.Fatalf("%v: %v vs %v", d, got, exp)
		}
		for k, n := range exp {
			if got[k] != n {
				t.Fatalf("%v %+v: %d, want %d", d, k, got[k], n)
			}
		}
	}
	for d := Dim(0); d < numDims; d++ {
		for i, g := range gs.Groups(d) {
			w := want.Groups(d)[i]
			if !g.Oldest.Equal(w.Oldest) || !g.Newest.Equal(w.Newest) {
				t.Fatalf("%v %+v: ages %v–%v, want %v–%v", d, g.Key, g.Oldest, g.Newest, w.Oldest, w.Newest)
			}
		}
	}
	top := want.Groups(DimReasonDest)[0]
	if top.Key.Reason != 2085 || top.Key.DestQ != "INVOICE.IN" || top.Count != 252 {
		t.Fatalf("top group %+v count %d", top.Key, top.Count)
	}
}

func TestJMSQueueName(t *testing.T) {
	for in, want := range map[string]string{
		"queue:///ORDERS.IN":              "ORDERS.IN",
		"queue://QM1/ORDERS.IN?persist=1": "ORDERS.IN",
		"":                                "",
	} {
		if got := jmsQueueName(in); got != want {
			t.Errorf("jmsQueueName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInGroupAgreesWithKeyOf(t *testing.T) {
	sums := []mqwatch.Summary{dl(1, 2085, "INVOICE.IN"), dl(2, 2053, "AUDIT.IN"), {PutApplName: "app", JMSDst: "queue:///X", JMSType: "T"}}
	for d := Dim(0); d < numDims; d++ {
		for i := range sums {
			for j := range sums {
				k := KeyOf(d, &sums[i])
				if got, want := InGroup(d, k, &sums[j]), KeyOf(d, &sums[j]) == k; got != want {
					t.Fatalf("%v: InGroup %v, KeyOf says %v (%d vs %d)", d, got, want, i, j)
				}
			}
		}
	}
}

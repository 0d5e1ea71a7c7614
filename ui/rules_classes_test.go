package ui

import (
	"reflect"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// W counts an unmarked DEADQ class by class: the groups it writes are those
// counting every message gives, order of equal groups included.
func TestWriteRulesCountsClassByClassAsMessageByMessage(t *testing.T) {
	snap := incident(1, 0)
	var sums []mqwatch.Summary
	for i := 0; i < 3000; i++ {
		s := dlqSummary(i, []int32{2085, 2053, 2035}[i%3], []string{"INVOICE.IN", "AUDIT.IN"}[i/7%2])
		s.DLHPutAppl = []string{"amqrmppa", "runmqtrm", "MQ JMS ConnectionConsumer"}[i/5%3]
		s.DLHPutTime = clock.Add(-time.Duration(i%97) * time.Minute)
		s.Arrival = uint64(i + 1)
		sums = append(sums, s)
	}
	snap.Inventories["QM1.DEADQ"] = (*mqwatch.Inventory)(nil).Append(sums...)
	a, _ := newTestApp(t, 120, 35, Options{})
	a.Update(snapshotMsg{snap: snap})
	press(a, "d")
	var gc dlqrules.GroupCounter
	for _, r := range topIs[*triageScreen](t, a).markedOrAll(a) {
		gc.AddN(&r.S, r.N, r.Oldest, r.Newest)
	}
	if got, want := gc.Groups(), dlqrules.GroupsOf(sums); !reflect.DeepEqual(got, want) {
		t.Fatalf("class by class:\n%+v\nmessage by message:\n%+v", got, want)
	}
}

package actions

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

func TestR10h_ParkPlanChecksNameLikeAndMaxDepth(t *testing.T) {
	qm := mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ"}
	qs := []mqwatch.QueueInfo{{Name: "QM1.DEADQ", Type: mqwatch.QLocal}, {Name: "ORDERS.ALIAS", Type: mqwatch.QAlias}, {Name: "ORDERS.BO", Type: mqwatch.QLocal}}
	for _, tc := range []struct {
		in   ParkInput
		mqsc string
		err  string
	}{
		// Names are case-sensitive: a lower-case name is kept and quoted.
		{ParkInput{Name: "orders.park", MaxDepth: 20000}, "DEFINE QLOCAL('orders.park') LIKE(QM1.DEADQ) MAXDEPTH(20000) NOTRIGGER", ""},
		{ParkInput{Name: "ORDERS.PARK", Like: "ORDERS.BO", MaxDepth: 5}, "DEFINE QLOCAL(ORDERS.PARK) LIKE(ORDERS.BO) MAXDEPTH(5) NOTRIGGER", ""},
		{ParkInput{Name: "ORDERS.PARK", Like: "orders.bo", MaxDepth: 5}, "", "no queue orders.bo"},
		{ParkInput{Name: "ORDERS.BO", MaxDepth: 5}, "", "already exists"},
		{ParkInput{Name: "A B", MaxDepth: 5}, "", "cannot be in a queue name"},
		{ParkInput{Name: "SYSTEM.PARK", MaxDepth: 5}, "", "SYSTEM.*"},
		{ParkInput{Name: strings.Repeat("Q", 49), MaxDepth: 5}, "", "1 to 48"},
		{ParkInput{Name: "P", Like: "NOPE", MaxDepth: 5}, "", "no queue NOPE"},
		{ParkInput{Name: "P", Like: "ORDERS.ALIAS", MaxDepth: 5}, "", "not a local queue"},
		{ParkInput{Name: "P", MaxDepth: 0}, "", "MAXDEPTH must be 1 to 999999999"},
		{ParkInput{Name: "P", MaxDepth: 1000000000}, "", "MAXDEPTH must be"},
	} {
		in := tc.in
		in.QMgr, in.Queues = qm, qs
		p, err := ParkPlan(in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || len(p.Steps) != 1 || p.Steps[0].MQSC != tc.mqsc || p.Steps[0].Change.Command != pcf.CmdCopyQ ||
			!strings.Contains(p.Steps[0].Authority, "+crt on queues (profile @class), +dsp on ") {
			t.Errorf("%+v: %+v %v", tc.in, p, err)
		}
	}
	if _, err := ParkPlan(ParkInput{QMgr: mqwatch.QMgrInfo{Name: "QM1"}, Queues: qs, Name: "P", MaxDepth: 5}); err == nil || !strings.Contains(err.Error(), "no DEADQ") {
		t.Errorf("no DEADQ: %v", err)
	}
}

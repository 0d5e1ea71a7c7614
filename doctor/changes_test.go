package doctor

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestR10h_DoctorChecksWhatTheOfferedFixesNeed: the object-change checks
// come from the steps of the fixes offered now (R2c on SHIP.IN: define its
// BOQ, then set BOTHRESH and BOQNAME on SHIP.IN, which has no BOQNAME yet)
// and of a parking queue LIKE the DEADQ, each with IBM MQ's authorities;
// the rules feature from what `rules run` opens; every grant says -p is
// the user's primary group and offers -g.
func TestR10h_DoctorChecksWhatTheOfferedFixesNeed(t *testing.T) {
	qm := newQM(t, baseMQSC+`DEFINE QLOCAL(SHIP.IN) BOTHRESH(3)
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app1') AUTHADD(CONNECT,INQ,DSP)
SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(PUT)
SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(GET,INQ)
SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(BROWSE,GET,PUT,DSP)
`, true)
	r := Run(context.Background(), target(qm, "app1"))
	for _, tc := range []struct {
		name  string
		check string
		ok    bool
		grant string
	}{
		{"R10h_chg_on_the_input_queue_without_a_BOQNAME", "object changes: change SHIP.IN (ALTER QLOCAL(SHIP.IN) BOTHRESH(3) BOQNAME(SHIP.BO))", false,
			"setmqaut -m QM1 -t q -n SHIP.IN -p app1 +chg"},
		{"R10h_crt_for_the_define", "object changes: create a queue (DEFINE QLOCAL(SHIP.BO)", false, "setmqaut -m QM1 -t q -n @class -p app1 +crt"},
		{"R10h_dsp_on_the_default_queue_for_the_define", "object changes: copy the attributes of SYSTEM.DEFAULT.LOCAL.QUEUE", true, ""},
		{"R10h_dsp_on_the_qmgr", "object changes: send a PCF command", true, ""},
		{"R10h_parking_queue_dsp_on_the_DEADQ", "object changes: define a parking queue: copy the attributes of SYSTEM.DEAD.LETTER.QUEUE", true, ""},
		{"R10h_rules_setall_not_passall", "rules: set all context (runmqdlq passes it: passall)", false, "setmqaut -m QM1 -t qmgr -p app1 +setall"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := find(t, r, tc.check)
			if c.OK != tc.ok {
				t.Fatalf("%+v", c)
			}
			if tc.grant == "" {
				return
			}
			if !slices.Contains(c.Fix, tc.grant) || !strings.Contains(c.Fix[0], "-p grants to app1's primary group") ||
				!slices.ContainsFunc(c.Fix, func(l string) bool { return strings.Contains(l, " -g GROUP +") }) ||
				!slices.ContainsFunc(c.Fix, func(l string) bool { return strings.Contains(l, "GROUP('GROUP')") }) {
				t.Errorf("fix %q", c.Fix)
			}
		})
	}
}

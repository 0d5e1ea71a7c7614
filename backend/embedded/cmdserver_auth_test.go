package embedded_test

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// TestR10h_CommandServerChecksWhatIBMMQChecks: as IBM MQ's command server
// ("Authorizations for PCF commands"), a change needs dsp on the queue
// manager on top of chg on the queue, and a create needs dsp on the object
// the new queue copies (the LIKE queue, else SYSTEM.DEFAULT.LOCAL.QUEUE) on
// top of crt; without them the answer is 2035 and nothing changes.
func TestR10h_CommandServerChecksWhatIBMMQChecks(t *testing.T) {
	base := `SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('u') AUTHADD(PUT)
SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('u') AUTHADD(GET,INQ,DSP)
SET AUTHREC PROFILE(ORDERS.BO) OBJTYPE(QUEUE) PRINCIPAL('u') AUTHADD(CHG)
SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) PRINCIPAL('u') AUTHADD(CRT)
`
	qmgrDsp := "SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('u') AUTHADD(CONNECT,INQ,DSP)\n"
	qmgrNoDsp := "SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('u') AUTHADD(CONNECT,INQ)\n"
	defaultDsp := "SET AUTHREC PROFILE(SYSTEM.DEFAULT.LOCAL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('u') AUTHADD(DSP)\n"
	likeDsp := "SET AUTHREC PROFILE(ORDERS.BO) OBJTYPE(QUEUE) PRINCIPAL('u') AUTHADD(DSP)\n"
	alter := pcf.Change{Command: pcf.CmdChangeQ, Queue: "ORDERS.BO", Type: mqwatch.QLocal, Attrs: []pcf.Attr{{Keyword: "MAXDEPTH", Value: "5000"}}}
	create := pcf.Change{Command: pcf.CmdCreateQ, Queue: "PAY.BO", Type: mqwatch.QLocal}
	copyQ := pcf.Change{Command: pcf.CmdCopyQ, Queue: "PAY.BO", Like: "ORDERS.BO", Type: mqwatch.QLocal}
	for _, tc := range []struct {
		name  string
		auths string
		ch    pcf.Change
		rc    mqfmt.Reason
	}{
		{"R10h_change_without_dsp_on_qmgr_is_2035", qmgrNoDsp, alter, mqfmt.RCNotAuthorized},
		{"R10h_change_with_dsp_on_qmgr", qmgrDsp, alter, 0},
		{"R10h_create_without_dsp_on_qmgr_is_2035", qmgrNoDsp + defaultDsp, create, mqfmt.RCNotAuthorized},
		{"R10h_create_without_dsp_on_the_default_queue_is_2035", qmgrDsp, create, mqfmt.RCNotAuthorized},
		{"R10h_create_with_dsp_on_the_default_queue", qmgrDsp + defaultDsp, create, 0},
		{"R10h_copy_without_dsp_on_the_LIKE_queue_is_2035", qmgrDsp + defaultDsp, copyQ, mqfmt.RCNotAuthorized},
		{"R10h_copy_with_dsp_on_the_LIKE_queue", qmgrDsp + likeDsp, copyQ, 0},
		{"R10h_change_qmgr_without_dsp_is_2035", qmgrNoDsp + "SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('u') AUTHADD(CHG)\n",
			pcf.Change{Command: pcf.CmdChangeQMgr, Attrs: []pcf.Attr{{Keyword: "MAXMSGL", Value: "4194340"}}}, mqfmt.RCNotAuthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qm := changeQM(t)
			qm.MQSC(base + tc.auths)
			err := applyAs(t, qm, "u", tc.ch)
			if got := mqwatch.ReasonOf(err); got != tc.rc {
				t.Fatalf("reason %d (%v), want %d", got, err, tc.rc)
			}
			q, _ := queueInfo(t, qm, "ORDERS.BO")
			_, created := queueInfo(t, qm, "PAY.BO")
			if tc.rc != 0 && (q.MaxDepth != 40 || created) {
				t.Errorf("refused, yet ORDERS.BO MAXDEPTH %d, PAY.BO created %v", q.MaxDepth, created)
			}
		})
	}
}

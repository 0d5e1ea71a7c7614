package ibmmq

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// MQPUT writes the MsgId it generated (MQPMO_NEW_MSG_ID) and the context it
// set into the caller's MQMD whenever the message was put: on MQCC_OK and on
// MQCC_WARNING too (2049 MQRC_PRIORITY_EXCEEDS_MAXIMUM: put at MAXPRTY, the
// Priority field keeps the caller's value). The actions audit and watch the
// copy by that MsgId, so a warning must not lose it. Only MQCC_FAILED (no
// message put) leaves the caller's MQMD as it was.
func TestPutWriteBackKeepsTheMQMDOfAWarning(t *testing.T) {
	var newID [24]byte
	copy(newID[:], "AMQ QM1         generated")
	for _, tt := range []struct {
		name string
		cc   int32
		want bool
	}{
		{"MQCC_OK", ccOK, true},
		{"MQCC_WARNING_2049", ccWarning, true},
		{"MQCC_FAILED", ccFailed, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			md := mqfmt.NewMQMD()
			md.Priority = 12
			sent := md
			back := toWireMD(&md)
			back.MsgId = newID[:]
			back.UserIdentifier = "app1"
			back.PutApplName = "poisonwatch"
			putWriteBack(&md, back, tt.cc)
			if !tt.want {
				if md != sent {
					t.Errorf("a failed put changed the caller's MQMD: %+v", md)
				}
				return
			}
			if md.MsgId != newID || mqfmt.Trim(md.UserIdentifier) != "app1" || mqfmt.Trim(md.PutApplName) != "poisonwatch" {
				t.Errorf("MsgId %q user %q appl %q: the MQMD MQPUT wrote back was dropped", md.MsgId, md.UserIdentifier, md.PutApplName)
			}
			if md.Priority != 12 {
				t.Errorf("Priority %d, want the caller's 12 (IBM: the field keeps the value given)", md.Priority)
			}
		})
	}
}

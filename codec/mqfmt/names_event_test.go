package mqfmt

import (
	"strings"
	"testing"
)

// TestEventNamesAreIBMsReasons: every event is named for an MQRC code of
// the same meaning (MQRC_Q_FULL is "Queue Full"), and the authority event
// says its type.
func TestEventNamesAreIBMsReasons(t *testing.T) {
	for rc, name := range eventNames {
		n, ok := mqrcName(int32(rc))
		if !ok {
			t.Errorf("%d (%s) is not an MQRC code", rc, name)
			continue
		}
		// The words of the event name appear in the reason's name, bar a few
		// IBM abbreviates (Transmission/XMIT, Conversion/CONV ...).
		first := strings.ToUpper(strings.Fields(name)[0])
		abbrev := map[string]string{"TRANSMISSION": "XMIT", "DEFAULT": "DEF", "QUEUE": "Q"}
		if a, ok := abbrev[first]; ok {
			first = a
		}
		if !strings.Contains(n, first) {
			t.Errorf("%d: event %q vs %s", rc, name, n)
		}
	}
	for _, tt := range []struct {
		rc   Reason
		q    int32
		want string
	}{
		{RCNotAuthorized, 2, "Not Authorized (type 2: open)"},
		{RCNotAuthorized, 29, "Not Authorized (type 1: user id and password (CONNAUTH))"},
		{RCNotAuthorized, 99, "Not Authorized"},
		{RCQFull, 0, "Queue Full"},
		{2033, 0, "event MQRC_NO_MSG_AVAILABLE"},
	} {
		if got := EventName(tt.rc, tt.q); got != tt.want {
			t.Errorf("%d/%d: %q, want %q", tt.rc, tt.q, got, tt.want)
		}
	}
	if ReasonQualifierName(2) != "MQRQ_OPEN_NOT_AUTHORIZED" || ReasonQualifierName(777) != "MQRQ_777" {
		t.Error("reason qualifier names")
	}
}

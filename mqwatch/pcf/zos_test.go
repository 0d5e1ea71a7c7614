package pcf

import (
	"slices"
	"testing"
)

// TestZOSRequestsLeaveOutProcessAndThreadIDs: the request built for a z/OS
// queue manager asks for neither MQIACF_PROCESS_ID nor MQIACF_THREAD_ID,
// and keeps everything else; the one for Multiplatforms keeps both.
func TestZOSRequestsLeaveOutProcessAndThreadIDs(t *testing.T) {
	for _, tt := range []struct {
		name string
		req  func(zos bool) []Param
		sel  int32
		all  []int32
	}{
		{"handles", func(z bool) []Param { return HandleRequest("APP.IN", z) }, ParamQStatusAttrs, handleSelectors},
		{"connections", ConnectionRequest, ParamConnectionAttrs, connectionSelectors},
	} {
		zos := Selectors(tt.req(true), tt.sel)
		dist := Selectors(tt.req(false), tt.sel)
		if slices.Contains(zos, ParamProcessID) || slices.Contains(zos, ParamThreadID) {
			t.Errorf("%s: z/OS request asks for %v", tt.name, zos)
		}
		if len(zos) != len(tt.all)-2 || !slices.Equal(dist, tt.all) {
			t.Errorf("%s: z/OS %v, distributed %v, all %v", tt.name, zos, dist, tt.all)
		}
		if _, err := Decode(mustEncode(t, cmdInquireQStatus, tt.req(true)), nativeOrder); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

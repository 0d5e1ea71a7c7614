package ibmmq

import (
	"strings"
	"testing"
)

// FuzzParseMQServer: any MQSERVER value parses or fails with an error; a
// parsed value has a valid channel, TCP, and at least one endpoint with a port.
func FuzzParseMQServer(f *testing.F) {
	for _, s := range []string{"DEV.APP.SVRCONN/TCP/mq1(1414)", "CH/tcp/a(1),b(2)", "CH/TCP/2001:db8::1(1414)",
		"CH/LU62/x", "/TCP/h", "CH/TCP/h(", "CH/TCP/h(99999)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		srv, err := ParseMQServer(s)
		if err != nil {
			return
		}
		if srv.Transport != "TCP" || srv.Channel == "" || len(srv.Channel) > 20 || len(srv.Endpoints) == 0 {
			t.Fatalf("accepted %q as %+v", s, srv)
		}
		for _, ep := range srv.Endpoints {
			if ep.Host == "" || ep.Port < 1 || ep.Port > 65535 || strings.ContainsAny(ep.Host, "(), /") {
				t.Fatalf("accepted endpoint %+v from %q", ep, s)
			}
		}
	})
}

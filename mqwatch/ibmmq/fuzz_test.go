package ibmmq

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// FuzzDecodePCF feeds arbitrary bytes to the PCF decoder in both byte orders:
// it must return a message or a *mqfmt.DecodeError inside the input, never
// panic, and a decoded message must map to the port's types without panicking.
func FuzzDecodePCF(f *testing.F) {
	for _, seed := range pcfSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			m, err := decodePCF(b, bo)
			if err != nil {
				var de *mqfmt.DecodeError
				if !errors.As(err, &de) || de.Offset < 0 || de.Offset > len(b) {
					t.Fatalf("error %v is not a DecodeError inside the input (len %d)", err, len(b))
				}
				continue
			}
			_, _ = queueInfoFrom(&m)
			_, _ = queueStatusFrom(&m, time.UTC)
			_, _ = handleFrom(&m)
			var r replySet
			r.add(m)
			_, _ = r.result()
		}
	})
}

// pcfSeeds are replies as queue managers send them, in both byte orders.
func pcfSeeds() [][]byte {
	status := []pcfParam{strParam(caQName, "ORDERS.IN"), intParam(iaCurrentQDepth, 9000),
		intParam(iacfOldestMsgAge, -1), strParam(cacfLastPutDate, ""), intParam(iaMonitoringQ, monOff)}
	queue := []pcfParam{strParam(caQName, "PAYMENTS.IN"), intParam(iaQType, qtLocal), intParam(iaBackoutThreshold, 5),
		strParam(caBackoutReqQName, "PAYMENTS.BO"), intListParam(iacfQAttrs, 1, 2)}
	handle := []pcfParam{strParam(caQName, "Q"), bytesParam(bacfConnectionID, []byte("AMQCQM1")),
		{Type: cftGroup, Param: 1, Group: []pcfParam{{Type: cftStringList, Param: 2, Strs: []string{"A", "BB"}}}},
		{Type: cftInteger64List, Param: 3, Ints: []int64{1 << 40}}}
	var seeds [][]byte
	for _, bo := range []order{binary.LittleEndian, binary.BigEndian} {
		seeds = append(seeds,
			replyBytes(bo, cftResponse, cfcLast, 0, status...),
			replyBytes(bo, cftXRItem, cfcNotLast, 0, queue...),
			replyBytes(bo, cftResponse, cfcLast, 0, handle...),
			replyBytes(bo, cftResponse, cfcLast, rccfCommandFailed))
	}
	return seeds
}

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

// FuzzStatusTime: any LPUTDATE/LPUTTIME pair gives a time or "unknown".
func FuzzStatusTime(f *testing.F) {
	f.Add("2026-03-01", "03.00.00")
	f.Add("2026-03-01", "03:00:00")
	f.Add("", "")
	f.Add("2026-02-30", "24.61.61")
	f.Fuzz(func(t *testing.T, d, c string) {
		tm, ok := statusTime(d, c, time.UTC)
		if ok == tm.IsZero() {
			t.Fatalf("statusTime(%q, %q) = %v, %v", d, c, tm, ok)
		}
	})
}

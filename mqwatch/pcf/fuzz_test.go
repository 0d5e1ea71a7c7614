package pcf

import (
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
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
			m, err := Decode(b, bo)
			if err != nil {
				var de *mqfmt.DecodeError
				if !errors.As(err, &de) || de.Offset < 0 || de.Offset > len(b) {
					t.Fatalf("error %v is not a DecodeError inside the input (len %d)", err, len(b))
				}
				continue
			}
			_, _ = QueueInfoFrom(&m)
			_, _ = queueStatusFrom(&m, time.UTC)
			_, _ = handleFrom(&m)
			_, _ = connectionFrom(&m, time.UTC)
			var r replySet
			r.add(m)
			_, _, _ = r.result(nil)
		}
	})
}

// pcfSeeds are replies as queue managers send them, in both byte orders.
func pcfSeeds() [][]byte {
	status := []Param{Str(caQName, "ORDERS.IN"), Int(iaCurrentQDepth, 9000),
		Int(iacfOldestMsgAge, -1), Str(cacfLastPutDate, ""), Int(iaMonitoringQ, monOff)}
	queue := []Param{Str(caQName, "PAYMENTS.IN"), Int(iaQType, qtLocal), Int(iaBackoutThreshold, 5),
		Str(caBackoutReqQName, "PAYMENTS.BO"), IntList(iacfQAttrs, 1, 2)}
	handle := []Param{Str(caQName, "Q"), ByteStr(bacfConnectionID, []byte("AMQCQM1")),
		{Type: cftGroup, Param: 1, Group: []Param{{Type: cftStringList, Param: 2, Strs: []string{"A", "BB"}}}},
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

// FuzzParseCommand: any bytes parse as a command or fail with an error, in
// both byte orders; a parsed command can be answered.
func FuzzParseCommand(f *testing.F) {
	for _, p := range [][]Param{inquireQueueParams("ORDERS.*"), inquireHandlesParams("Q"), inquireConnectionsParams()} {
		b, _ := encodeCommand(binary.BigEndian, cmdInquireQ, p)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			c, err := ParseCommand(b, bo)
			if err != nil {
				continue
			}
			if _, err := EncodeAnswer(bo, c.Code, Answer{Failures: []ObjectFailure{{Object: c.Name, Reason: 2085}}}); err != nil {
				t.Fatalf("answer to %+v: %v", c, err)
			}
		}
	})
}

package demo

import (
	"context"
	"testing"
	"time"
)

// BenchmarkSimulateBuiltin measures one simulated minute of the built-in
// demo, setup and final scan included; messages/op is what it produced.
func BenchmarkSimulateBuiltin(b *testing.B) {
	s, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	var produced int64
	for b.Loop() {
		res, err := s.Simulate(context.Background(), SimOptions{Duration: time.Minute})
		if err != nil || !res.Accounting.Balanced {
			b.Fatalf("%v %+v", err, res.Accounting)
		}
		produced += res.Accounting.Produced
	}
	b.ReportMetric(float64(produced)/float64(b.N), "messages/op")
}

// BenchmarkBuild measures building one message of each payload kind.
func BenchmarkBuild(b *testing.B) {
	for _, k := range payloadKinds {
		b.Run(string(k), func(b *testing.B) {
			p := &ProducerSpec{Name: "P", Queue: "ORDERS.IN", Payload: k, Priority: -1, ReplyTo: "R"}
			rng, now := newRand(1, "bench"), time.Now()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := build(p, "ORD-000001", true, rng, now); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

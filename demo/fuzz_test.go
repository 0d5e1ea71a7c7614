package demo

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// FuzzParsePredicate: any text either parses or fails with an error, and a
// parsed predicate evaluates on any message without panicking.
func FuzzParsePredicate(f *testing.F) {
	for _, s := range []string{"", "always", "body contains POISON", `body contains "a b"`,
		"fraction 0.5 or backout >= 3", "persistent and unparseable", "backout == 0", `body contains "`} {
		f.Add(s, []byte("RFH \x00\x00\x00\x02"))
	}
	f.Fuzz(func(t *testing.T, src string, data []byte) {
		p, err := ParsePredicate(src)
		if err != nil {
			return
		}
		md := mqfmt.NewMQMD()
		md.Format, md.Encoding, md.CodedCharSetId = mqfmt.FmtRFH2, mqfmt.EncodingNormal, 1208
		p.Fails(&mqwatch.Message{MD: md, Data: data, Length: len(data)}, rand.New(rand.NewPCG(1, 2)))
	})
}

// FuzzParseScenario: any TOML either parses into a valid scenario or fails
// with an error; a parsed scenario validates again without changes.
func FuzzParseScenario(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add([]byte("[[qmgr]]\nname = \"QM1\"\n[[link]]\nqmgrs = [\"QM1\", \"QM1\"]\n"))
	f.Add([]byte("[[qmgr]]\nname = \"QM1\"\n[[producer]]\nname = \"P\"\ntopic = \"a/#\"\nburst = { every = \"1s\", count = 3, rate = 9 }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("a parsed scenario fails validation: %v", err)
		}
		for i := range s.Consumers {
			if _, err := s.Consumers[i].options(); err != nil {
				t.Fatalf("consumer %d: %v", i, err)
			}
		}
	})
}

// FuzzParseFleet: any --scenario value is a fleet size, not a fleet, or an
// error; a size reads back the same when written as fleet:NxM, and a small
// one generates a fleet that validates (a large one is refused, never built
// half).
func FuzzParseFleet(f *testing.F) {
	for _, s := range []string{"fleet", "fleet:10", "fleet:10x200", "fleet:0", "fleet:x", "fleet:3x", "fleetwood", "./fleet", "fleet:1x20"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, ok, err := ParseFleet(s)
		if !ok || err != nil {
			if !ok && err != nil {
				t.Fatalf("%q: not a fleet, yet an error: %v", s, err)
			}
			return
		}
		if o.QMgrs < 0 || o.Queues < 0 {
			t.Fatalf("%q: negative size %+v", s, o)
		}
		if o.QMgrs > 0 && o.Queues > 0 {
			back, _, err := ParseFleet(fmt.Sprintf("fleet:%dx%d", o.QMgrs, o.Queues))
			if err != nil || back != o {
				t.Fatalf("%q: %+v reads back as %+v, %v", s, o, back, err)
			}
		}
		if o.QMgrs >= 1 && o.QMgrs <= 3 && o.Queues >= 1 && o.Queues <= 40 {
			if sc, err := Fleet(o); err == nil && sc.Validate() != nil {
				t.Fatalf("%q: a generated fleet does not validate", s)
			}
		}
	})
}

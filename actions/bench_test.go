package actions

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// BenchmarkRoute measures one prediction, as the model makes for every
// message row it shows: a deliver with its after-rollback decision, and the
// deepest path (BOQ full → DEADQ → R4).
func BenchmarkRoute(b *testing.B) {
	cases := []struct {
		name string
		in   RouteInput
	}{
		{"deliver", in(Async, 1, 3, "ORDERS.BO")},
		{"poison_full_path", with(in(SyncTransacted, 3, 3, "ORDERS.BO"), facts(FactMap{"ORDERS.BO": full(), "QM1.DEADQ": full()}))},
		{"asf_report", with(in(ASF, 3, 3, ""), report(mqfmt.ROExceptionWithData))},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Route(&c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkToBackoutQueue(b *testing.B) {
	md := receivedMD()
	data := make([]byte, 4096)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := ToBackoutQueue(md, data); err != nil {
			b.Fatal(err)
		}
	}
}

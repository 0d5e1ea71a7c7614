package dlqrules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// BenchmarkPreview100kDeadQ50Rules previews a 50-rule table against a DEADQ
// of 100,000 messages in 20 groups: browse, match, plan and predict.
func BenchmarkPreview100kDeadQ50Rules(b *testing.B) {
	f := newFixture(b)
	reasons := []mqfmt.Reason{mqfmt.RCQFull, mqfmt.RCPutInhibited, mqfmt.RCUnknownObjectName, mqfmt.RCNotAuthorized}
	dests := []string{"ORDERS.IN", "PAYMENTS.IN", "PARKING.Q", "OFF.IN", "NOPE.IN"}
	for n := range 100_000 {
		f.dead(n, dests[n%len(dests)], reasons[n%len(reasons)], nil)
	}
	var t strings.Builder
	for i := range 47 { // rules that match nothing, tested against every message
		fmt.Fprintf(&t, "DESTQ(NEVER%d.*) APPLNAME('app-%d') ACTION(DISCARD)\n", i, i)
	}
	t.WriteString("REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)\nDESTQ(PAYMENTS.*) ACTION(FWD) FWDQ(PARKING.Q) HEADER(NO)\nACTION(IGNORE)\n")
	tb, err := Parse(strings.NewReader(t.String()))
	if err != nil {
		b.Fatal(err)
	}
	src := f.source("")
	b.ResetTimer()
	for b.Loop() {
		rep, err := Preview(f.ctx, src, tb, "")
		if err != nil || rep.Total != 100_000 {
			b.Fatalf("preview: %v, %d messages", err, rep.Total)
		}
	}
}

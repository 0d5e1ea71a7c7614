package dlqrules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
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
	tb, err := Parse(strings.NewReader(benchTable()))
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

// BenchmarkPredict100kSummaries50Rules is what one dashboard prediction
// costs: the verdicts of the 100,000 messages of a DEADQ as the dashboard
// lists them (summaries, already read) against a 50-rule table, through
// the engine's plans (which check each listed message is still there) and
// probes.
func BenchmarkPredict100kSummaries50Rules(b *testing.B) {
	f := newFixture(b)
	reasons := []mqfmt.Reason{mqfmt.RCQFull, mqfmt.RCPutInhibited, mqfmt.RCUnknownObjectName, mqfmt.RCNotAuthorized}
	dests := []string{"ORDERS.IN", "PAYMENTS.IN", "PARKING.Q", "OFF.IN", "NOPE.IN"}
	for n := range 100_000 {
		f.dead(n, dests[n%len(dests)], reasons[n%len(reasons)], nil)
	}
	conn, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{})
	if err != nil {
		b.Fatal(err)
	}
	msgs, err := scan(f.ctx, conn, "QM1.DEADQ")
	_ = conn.Close()
	if err != nil {
		b.Fatal(err)
	}
	subs := make([]Subject, len(msgs))
	for i := range msgs {
		subs[i] = SubjectOfSummary(&msgs[i].Sum)
	}
	tb, err := Parse(strings.NewReader(benchTable()))
	if err != nil {
		b.Fatal(err)
	}
	src := f.source("")
	b.ResetTimer()
	for b.Loop() {
		vs, err := Predict(f.ctx, src, tb, "QM1.DEADQ", subs)
		if err != nil || len(vs) != len(subs) || strings.HasPrefix(vs[0].Outcome, "would be left: gone") {
			b.Fatalf("predict: %v, %d verdicts, first %q", err, len(vs), vs[0].Outcome)
		}
	}
}

// benchTable is 47 rules that match nothing, tested against every message,
// then three that do.
func benchTable() string {
	var t strings.Builder
	for i := range 47 {
		fmt.Fprintf(&t, "DESTQ(NEVER%d.*) APPLNAME('app-%d') ACTION(DISCARD)\n", i, i)
	}
	t.WriteString("REASON(MQRC_Q_FULL) ACTION(RETRY) RETRY(3)\nDESTQ(PAYMENTS.*) ACTION(FWD) FWDQ(PARKING.Q) HEADER(NO)\nACTION(IGNORE)\n")
	return t.String()
}

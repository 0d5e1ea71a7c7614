package ops_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// sharedIdentity puts messages that a move by MsgId and CorrelId alone
// would confuse, returning their bodies in queue order:
//   - twins: identical MQMD (MsgId, CorrelId, put time, context), different data;
//   - segments: one logical message in three segments sharing a MsgId,
//     differing only in Offset and MsgFlags;
//   - group: three messages of a logical group sharing a MsgId, differing in
//     MsgSeqNumber and MsgFlags.
func sharedIdentity(f *opFixture, queue, kind string, base int) []string {
	c := f.conn()
	var bodies []string
	for i := range 3 {
		md, _ := original(base)
		body := fmt.Sprintf("%s %d of message %d", kind, i, base)
		switch kind {
		case "twin":
			// nothing tells them apart but their data
		case "segment":
			md.GroupId = msgID(500_000 + base)
			md.Offset = int32(100 * i)
			md.MsgFlags = mqfmt.MFSegment
			if i == 2 {
				md.MsgFlags |= mqfmt.MFLastSegment
			}
		case "group":
			md.GroupId = msgID(600_000 + base)
			md.MsgSeqNumber = int32(i + 1)
			md.MsgFlags = mqfmt.MFMsgInGroup
			if i == 2 {
				md.MsgFlags |= mqfmt.MFLastMsgInGroup
			}
		}
		f.putSetAll(c, queue, md, []byte(body))
		bodies = append(bodies, body)
	}
	return bodies
}

func dataOf(msgs []mqwatch.Message) []string {
	out := make([]string, len(msgs))
	for i := range msgs {
		out[i] = string(msgs[i].Data)
	}
	return out
}

// TestR10a_SharedIdentityKeepsItsOwnData: messages that share MsgId,
// CorrelId and put time arrive each with its own data, in order, the
// source empty, whatever the batch size and the number of workers.
func TestR10a_SharedIdentityKeepsItsOwnData(t *testing.T) {
	for _, kind := range []string{"twin", "segment", "group"} {
		for _, shape := range []struct{ batch, workers int }{{100, 1}, {1, 1}, {2, 1}, {2, 4}} {
			t.Run(fmt.Sprintf("%s/batch_%d_workers_%d", kind, shape.batch, shape.workers), func(t *testing.T) {
				f := newOpFixture(t, "")
				want := sharedIdentity(f, "ORDERS.BO", kind, 1)
				res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", All: true,
					Target: "PARKING.Q", Batch: shape.batch, Workers: shape.workers})
				if res.Done != 3 {
					t.Fatalf("done %d, want 3; stopped %q", res.Done, res.Stopped)
				}
				got := f.browse("PARKING.Q")
				if fmt.Sprint(dataOf(got)) != fmt.Sprint(want) {
					t.Fatalf("target holds %q, want %q", dataOf(got), want)
				}
				for i := range got {
					if got[i].MD.BackoutCount != 0 {
						t.Errorf("message %d BackoutCount %d, want 0", i, got[i].MD.BackoutCount)
					}
				}
				wantDepths(t, f, map[string]int{"ORDERS.BO": 0})
			})
		}
	}
}

// TestR10a_OnlyTheListedTwinMoves: of identical twins, the one the operator
// listed (told apart by its body) moves, under the browse cursor, and its
// twin stays.
func TestR10a_OnlyTheListedTwinMoves(t *testing.T) {
	for _, kind := range []string{"twin", "segment", "group"} {
		t.Run(kind, func(t *testing.T) {
			f := newOpFixture(t, "")
			bodies := sharedIdentity(f, "ORDERS.BO", kind, 1)
			sums := f.summaries("ORDERS.BO")
			res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO",
				Messages: []mqwatch.Summary{sums[2], sums[1]}, Target: "PARKING.Q"})
			if res.Done != 2 {
				t.Fatalf("done %d, want 2; stopped %q", res.Done, res.Stopped)
			}
			if got := dataOf(f.browse("PARKING.Q")); fmt.Sprint(got) != fmt.Sprint([]string{bodies[2], bodies[1]}) {
				t.Fatalf("target holds %q, want the last two in the order listed", got)
			}
			left := f.browse("ORDERS.BO")
			if len(left) != 1 || string(left[0].Data) != bodies[0] || left[0].MD.BackoutCount != 0 {
				t.Fatalf("source holds %q, want only %q with BackoutCount 0", dataOf(left), bodies[0])
			}
		})
	}
}

// TestR10d_DiscardArchivesEachTwinOnce: a discard archives each twin's own
// data, then removes both.
func TestR10d_DiscardArchivesEachTwinOnce(t *testing.T) {
	f := newOpFixture(t, "")
	want := sharedIdentity(f, "ORDERS.BO", "twin", 1)
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpDiscard, Queue: "ORDERS.BO", All: true, Batch: 2})
	if res.Done != 3 {
		t.Fatalf("done %d; stopped %q", res.Done, res.Stopped)
	}
	var got []string
	for _, m := range readArchive(t, res.ArchiveFile) {
		got = append(got, string(m.Data))
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("archive holds %q, want %q", got, want)
	}
	wantDepths(t, f, map[string]int{"ORDERS.BO": 0})
}

// TestR10e_ReplayCopiesEachTwin: replay and export already counted
// occurrences; they still copy each twin's own data.
func TestR10e_ReplayCopiesEachTwin(t *testing.T) {
	f := newOpFixture(t, "")
	want := sharedIdentity(f, "ORDERS.BO", "segment", 1)
	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpReplay, Queue: "ORDERS.BO", All: true, Target: "PARKING.Q"})
	if res.Done != 3 {
		t.Fatalf("done %d; stopped %q", res.Done, res.Stopped)
	}
	if got := dataOf(f.browse("PARKING.Q")); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("target holds %q, want %q", got, want)
	}
}

// TestR10a_AGetThatReturnsAnotherMessageBacksOut: between the browse and the
// get, another application puts a twin (same MsgId, CorrelId, put time and
// group position, other data) in front, at a higher priority. The get by
// identifiers returns it: the batch is backed out, never committed, and the
// message shown is got under the browse cursor instead; the intruder stays.
func TestR10a_AGetThatReturnsAnotherMessageBacksOut(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	md, _ := original(1)
	f.putSetAll(c, "ORDERS.BO", md, []byte("the message shown"))
	hang := f.qm.Faults().Add(embedded.Fault{Verb: embedded.VerbGet, Times: 1, Hang: true})
	done := make(chan ops.OpResult)
	go func() {
		res, _ := f.engine().Run(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO", Messages: f.summaries("ORDERS.BO"),
			Target: "PARKING.Q", Workers: 1}, nil)
		done <- res
	}()
	for f.qm.Faults().Hits(hang) == 0 {
		time.Sleep(time.Millisecond)
	}
	intruder := md
	intruder.Priority = 9
	f.putSetAll(c, "ORDERS.BO", intruder, []byte("an intruder"))
	f.qm.Faults().Remove(hang)
	res := <-done
	if res.Done != 1 {
		t.Fatalf("done %d, stopped %q", res.Done, res.Stopped)
	}
	if got := dataOf(f.browse("PARKING.Q")); fmt.Sprint(got) != "[the message shown]" {
		t.Fatalf("target holds %q", got)
	}
	left := f.browse("ORDERS.BO")
	if len(left) != 1 || string(left[0].Data) != "an intruder" || left[0].MD.BackoutCount != 1 {
		t.Fatalf("source holds %q (BackoutCount %d), want the intruder, counted once: its get was backed out", dataOf(left), left[0].MD.BackoutCount)
	}
}

// TestR10_DryRunAndFetchTellTwinsApartByBody: the dry run and the message
// screen find a listed twin as a run does, by the body shown: once the last
// twin has moved, a plan listing it with another says that one is gone and
// the other is still there, and the message screen of a twin shows its own
// data, not its first twin's.
func TestR10_DryRunAndFetchTellTwinsApartByBody(t *testing.T) {
	f := newOpFixture(t, "")
	bodies := sharedIdentity(f, "ORDERS.BO", "twin", 1)
	sums := f.summaries("ORDERS.BO")
	for i := range sums {
		m, err := f.engine().Fetch(f.ctx, "ORDERS.BO", sums[i])
		if err != nil || string(m.Data) != bodies[i] {
			t.Errorf("fetch of twin %d: %q, %v; want %q", i, m.Data, err, bodies[i])
		}
	}
	if res := f.run(f.engine(), ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO",
		Messages: sums[2:], Target: "PARKING.Q"}); res.Done != 1 {
		t.Fatalf("done %d, stopped %q", res.Done, res.Stopped)
	}
	plan, err := f.engine().Plan(f.ctx, ops.OpRequest{Op: ops.OpMove, Queue: "ORDERS.BO",
		Messages: []mqwatch.Summary{sums[2], sums[1]}, Target: "PARKING.Q"})
	if err != nil {
		t.Fatal(err)
	}
	if o := plan.Items[0].Text(plan.Request.Op); !strings.HasPrefix(o, "skipped: gone") {
		t.Errorf("the twin moved away is planned %q, want gone", o)
	}
	if o := plan.Items[1].Text(plan.Request.Op); !strings.HasPrefix(o, "would") {
		t.Errorf("the twin still there is planned %q, want would move", o)
	}
	if _, err := f.engine().Fetch(f.ctx, "ORDERS.BO", sums[2]); !mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
		t.Errorf("fetch of the twin moved away: %v, want MQRC_NO_MSG_AVAILABLE", err)
	}
}

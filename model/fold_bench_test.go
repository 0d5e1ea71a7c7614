package model

import (
	"fmt"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// These tests back BenchmarkFold: the snapshots it folds look like a
// watcher's, and the groups a steady fold leaves are those a full regrouping
// would build, so the benchmark times correct work.

var smallFold = foldScenario{Queues: 20, DeadDepth: 2000, BOQs: 2, BOQDepth: 100, PerPoll: 50, LoadedEvery: 4}

func TestBenchSnapshotsAreThoseOfASteadyWatcher(t *testing.T) {
	for _, drop := range []bool{false, true} {
		t.Run(fmt.Sprintf("drop=%v", drop), func(t *testing.T) {
			env, err := newFoldEnv(smallFold)
			if err != nil {
				t.Fatal(err)
			}
			first := env.snapshot(nil)
			if !first.Deltas[benchDeadQ].Resync || len(first.Queues) != smallFold.Queues || first.Inventories[benchDeadQ].Len() != smallFold.DeadDepth {
				t.Fatalf("first snapshot: resync=%v queues=%d deadq=%d", first.Deltas[benchDeadQ].Resync, len(first.Queues), first.Inventories[benchDeadQ].Len())
			}
			snap, err := env.steady(drop)
			if err != nil {
				t.Fatal(err)
			}
			d := snap.Deltas[benchDeadQ]
			wantLen, wantDropped := smallFold.DeadDepth+smallFold.PerPoll, 0
			if drop {
				wantLen, wantDropped = smallFold.DeadDepth, smallFold.PerPoll
			}
			if snap.Seq != first.Seq+1 || d.Resync || len(d.Added) != smallFold.PerPoll || len(d.Dropped) != wantDropped {
				t.Fatalf("steady snapshot: seq %d after %d, resync=%v added=%d dropped=%d", snap.Seq, first.Seq, d.Resync, len(d.Added), len(d.Dropped))
			}
			if got := snap.Inventories[benchDeadQ].Len(); got != wantLen {
				t.Fatalf("DEADQ inventory %d, want %d", got, wantLen)
			}
			if snap.Inventories["APP.0000.BO"] != first.Inventories["APP.0000.BO"] {
				t.Fatal("an unchanged BOQ inventory was not shared between snapshots")
			}
		})
	}
}

func TestBenchDeadLettersSummarizeWithEveryGroupingFact(t *testing.T) {
	m, err := deadLetter(7)
	if err != nil {
		t.Fatal(err)
	}
	s := mqwatch.Summarize(&m)
	if s.DecodeErr != "" || !s.HasDLH || !s.HasRFH2 || s.PutTime.IsZero() {
		t.Fatalf("summary %+v", s)
	}
	if s.DLHReason != int32(mqfmt.RCQFull) || s.DLHDestQ != "PAYMENTS.IN" || s.DLHDestQMgr != "QM2" ||
		s.DLHPutAppl != "MQ JMS ConnectionConsumer" || s.JMSDst != "queue:///PAYMENTS.IN" || s.JMSType != "Amendment" {
		t.Fatalf("grouping facts: reason %d dest %q qmgr %q appl %q dst %q type %q",
			s.DLHReason, s.DLHDestQ, s.DLHDestQMgr, s.DLHPutAppl, s.JMSDst, s.JMSType)
	}
	if want := benchStart.Add(7 * benchPutGap); !s.PutTime.Equal(want) {
		t.Fatalf("put time %v, want %v", s.PutTime, want)
	}
}

func TestSteadyFoldGroupsEqualAFullRegrouping(t *testing.T) {
	for _, drop := range []bool{false, true} {
		t.Run(fmt.Sprintf("drop=%v", drop), func(t *testing.T) {
			env, err := newFoldEnv(smallFold)
			if err != nil {
				t.Fatal(err)
			}
			s := New(nil, 2*time.Second)
			s.Fold(env.snapshot(nil))
			var snap *mqwatch.Snapshot
			for i := 0; i < 5; i++ {
				if snap, err = env.steady(drop); err != nil {
					t.Fatal(err)
				}
				s.Fold(snap)
			}
			for name, inv := range snap.Inventories {
				got := s.QMgr("QM1").Groups[name]
				if err := sameGroups(got, BuildGroups(name, name == benchDeadQ, inv)); err != nil {
					t.Fatalf("%s after 5 steady folds: %v", name, err)
				}
			}
			qs := s.QMgr("QM1").Queues[benchDeadQ]
			if rate, ok := qs.ArrivalsPerMinute(); !ok || rate != float64(smallFold.PerPoll)*30 {
				t.Fatalf("DEADQ arrivals %v/min (%v), want %d per 2 s poll", rate, ok, smallFold.PerPoll)
			}
		})
	}
}

// sameGroups compares counts and age ranges along every dimension.
func sameGroups(got, want *GroupSet) error {
	for d := Dim(0); d < numDims; d++ {
		got.Groups(d) // age ranges are brought up to date when read
		if len(got.groups[d]) != len(want.groups[d]) {
			return fmt.Errorf("%s: %d groups, want %d", d, len(got.groups[d]), len(want.groups[d]))
		}
		for k, w := range want.groups[d] {
			g := got.groups[d][k]
			if g == nil || g.Count != w.Count || !g.Oldest.Equal(w.Oldest) || !g.Newest.Equal(w.Newest) {
				return fmt.Errorf("%s group %+v: got %+v, want count %d oldest %v newest %v", d, k, g, w.Count, w.Oldest, w.Newest)
			}
		}
	}
	return nil
}

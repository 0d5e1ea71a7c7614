package actions

import (
	"errors"
	"slices"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestConsumerDetection(t *testing.T) {
	t.Run("R1a_success_commits_the_get", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: SyncTransacted, Queue: "ORDERS.IN"})
		f.putText("ORDERS.IN")
		res, err := c.Poll(f.ctx, succeeding)
		if err != nil || res.Fate != Deliver || f.depth("ORDERS.IN") != 0 {
			t.Fatalf("res %+v err %v depth %d", res, err, f.depth("ORDERS.IN"))
		}
		if c.Cached() != nil {
			t.Error("R1a: attributes inquired at BackoutCount 0")
		}
	})
	t.Run("R1d_failure_rolls_back_and_counts", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: Async, Queue: "ORDERS.IN"})
		f.putText("ORDERS.IN")
		f.pollN(c, 2, failing)
		ms := f.browse("ORDERS.IN")
		if len(ms) != 1 || ms[0].MD.BackoutCount != 2 {
			t.Fatalf("messages %d, BackoutCount %d", len(ms), ms[0].MD.BackoutCount)
		}
		if got := c.Cached(); got == nil || got.BackoutThresh != 3 || got.BackoutQName != "ORDERS.BO" {
			t.Errorf("R1b cached %+v", got)
		}
	})
	t.Run("R1b_cached_attributes_outlive_an_ALTER", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: SyncNonTransacted, Queue: "ORDERS.IN"})
		f.putText("ORDERS.IN")
		f.pollN(c, 2, failing) // sees BackoutCount 1 on the second get: inquires and caches
		f.qm.MQSC("ALTER QLOCAL(ORDERS.IN) BOTHRESH(0)")
		f.pollN(c, 1, failing)
		res, err := c.Poll(f.ctx, failing)
		if err != nil || res.Fate != MoveToBOQ || f.depth("ORDERS.BO") != 1 {
			t.Fatalf("res %+v err %v: the consumer must act on its cached BOTHRESH 3", res, err)
		}
	})
	t.Run("R1b_alias_input_queue_inquires_its_base_queue", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: Async, Queue: "ORDERS.ALIAS"})
		f.putText("ORDERS.ALIAS")
		res, err := f.pollN(c, 4, failing)
		if err != nil || res.Fate != MoveToBOQ || f.depth("ORDERS.BO") != 1 {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("R1c_BOTHRESH_0_loops_forever", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: Async, Queue: "LOOP.IN"})
		f.putText("LOOP.IN")
		res, err := f.pollN(c, 8, failing)
		ms := f.browse("LOOP.IN")
		if err != nil || res.Fate != LoopForever || len(ms) != 1 || ms[0].MD.BackoutCount != 8 {
			t.Fatalf("res %+v err %v on queue %d", res.Fate, err, len(ms))
		}
	})
	t.Run("R1f_plain_MQI_consumer_loops_despite_BOTHRESH", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: MQI, Queue: "ORDERS.IN"})
		f.putText("ORDERS.IN")
		res, err := f.pollN(c, 6, failing)
		if err != nil || res.Fate != LoopForever || f.depth("ORDERS.IN") != 1 || f.depth("ORDERS.BO") != 0 {
			t.Fatalf("res %+v err %v", res, err)
		}
		if !containsText(res.Why, "stuck poison") {
			t.Errorf("R8c not explained: %v", res.Why)
		}
	})
}

func TestConsumerMovesPoisonToBOQ(t *testing.T) {
	for _, s := range []Style{SyncTransacted, SyncNonTransacted, Async, ASF} {
		t.Run("R1e_R2a_R5b_"+s.String()+"_moves_poison_to_the_BOQ", func(t *testing.T) {
			f := newQM(t, "")
			c := f.consumer(ConsumerOptions{Style: s, Queue: "ORDERS.IN"})
			orig := f.putText("ORDERS.IN")
			f.pollN(c, 3, failing)
			res, err := c.Poll(f.ctx, failing)
			if err != nil || res.Fate != MoveToBOQ || res.Queue != "ORDERS.BO" {
				t.Fatalf("res %+v err %v", res, err)
			}
			ms := f.browse("ORDERS.BO")
			if len(ms) != 1 || f.depth("ORDERS.IN") != 0 {
				t.Fatalf("BOQ %d, input %d", len(ms), f.depth("ORDERS.IN"))
			}
			md := ms[0].MD
			if md.BackoutCount != 0 || md.Format != mqfmt.FmtRFH2 || md.Encoding != 273 || md.CodedCharSetId != 1208 {
				t.Errorf("R5b MQMD %+v", md)
			}
			if md.PutApplName != orig.PutApplName || md.MsgId != orig.MsgId {
				t.Errorf("context not passed: PutApplName %q MsgId %x", md.PutApplName, md.MsgId)
			}
			r := rfh2Of(t, ms[0])
			if r.Format != mqfmt.FmtString || r.Encoding != mqfmt.EncodingNative || r.CodedCharSetId != mqfmt.CCSIDISO88591 || string(ms[0].Data[36:]) != "order 42" {
				t.Errorf("R5b RFH2 %+v body %q", r, ms[0].Data[36:])
			}
		})
	}
	t.Run("R3a_sync_transacted_rollback_undoes_the_move", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: SyncTransacted, Queue: "ORDERS.IN", Outcome: OutcomeRollback})
		f.putText("ORDERS.IN")
		res, err := f.pollN(c, 4, failing)
		ms := f.browse("ORDERS.IN")
		if err != nil || res.Fate != MoveToBOQ || f.depth("ORDERS.BO") != 0 || len(ms) != 1 || ms[0].MD.BackoutCount != 4 {
			t.Fatalf("res %+v err %v BOQ %d", res.Fate, err, f.depth("ORDERS.BO"))
		}
	})
	t.Run("R3b_async_move_is_committed_on_its_own", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: Async, Queue: "ORDERS.IN", Outcome: OutcomeRollback})
		f.putText("ORDERS.IN")
		if res, err := f.pollN(c, 4, failing); err != nil || res.Fate != MoveToBOQ || f.depth("ORDERS.BO") != 1 {
			t.Fatalf("res %+v err %v", res.Fate, err)
		}
	})
}

func TestConsumerFallbacks(t *testing.T) {
	boqOff := "ALTER QLOCAL(ORDERS.BO) PUT(DISABLED)\n"
	bothOff := boqOff + "ALTER QLOCAL(QM1.DEADQ) PUT(DISABLED)\n"
	tests := []struct {
		name          string
		script        string
		opts          ConsumerOptions
		report        int32
		nonPersistent bool
		action        Fate
		err           error
		input         int // messages left on ORDERS.IN
		deadq         int
	}{
		{name: "R2b_BOQ_put_inhibited_dead_letters", script: boqOff, opts: ConsumerOptions{Style: Async}, action: MoveToDeadQ, deadq: 1},
		{name: "R2b_BOQ_put_inhibited_discard_option_discards", script: boqOff, opts: ConsumerOptions{Style: Async}, report: mqfmt.RODiscardMsg, action: Discard},
		{name: "R4a_sync_transacted_commit_discards", script: bothOff, opts: ConsumerOptions{Style: SyncTransacted, Outcome: OutcomeCommit}, action: Discard},
		{name: "R4b_sync_transacted_rollback_returns_to_input", script: bothOff, opts: ConsumerOptions{Style: SyncTransacted, Outcome: OutcomeRollback}, action: ReturnToInput, input: 1},
		{name: "R4c_sync_nontransacted_discards", script: bothOff, opts: ConsumerOptions{Style: SyncNonTransacted}, action: Discard},
		{name: "R4d_async_returns_to_input", script: bothOff, opts: ConsumerOptions{Style: Async}, action: ReturnToInput, input: 1},
		{name: "R4e_asf_nonpersistent_discarded_without_report", script: bothOff, opts: ConsumerOptions{Style: ASF},
			nonPersistent: true, report: mqfmt.ROException, action: Discard},
		{name: "R4f_asf_persistent_stops_delivery", script: bothOff, opts: ConsumerOptions{Style: ASF}, action: StopConsumers, err: ErrStopped, input: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newQM(t, tc.script)
			tc.opts.Queue = "ORDERS.IN"
			c := f.consumer(tc.opts)
			f.putText("ORDERS.IN", func(md *mqfmt.MQMD) {
				md.Report, md.ReplyToQ = tc.report, "APP.REPLY"
				if tc.nonPersistent {
					md.Persistence = mqfmt.PerNotPersistent
				}
			})
			f.pollN(c, 3, failing)
			res, err := c.Poll(f.ctx, failing)
			if !errors.Is(err, tc.err) || res.Fate != tc.action {
				t.Fatalf("action %v err %v, want %v %v\n%v", res.Fate, err, tc.action, tc.err, res.Why)
			}
			if got := f.depth("ORDERS.IN"); got != tc.input {
				t.Errorf("input queue holds %d, want %d", got, tc.input)
			}
			if got := f.depth("QM1.DEADQ"); got != tc.deadq {
				t.Errorf("DEADQ holds %d, want %d", got, tc.deadq)
			}
			if got := f.depth("APP.REPLY"); got != 0 {
				t.Errorf("report messages: %d", got)
			}
		})
	}
}

func TestConsumerViewFeedsLint(t *testing.T) {
	t.Run("R1b_consumer_view_shows_stale_cache_to_lint", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: Async, Queue: "ORDERS.ALIAS"})
		f.putText("ORDERS.ALIAS")
		f.pollN(c, 2, failing)
		f.qm.MQSC("ALTER QLOCAL(ORDERS.IN) BOTHRESH(7)")
		v := c.View("orders-listener")
		if v.Queue != "ORDERS.IN" || v.Cached == nil || v.Cached.BackoutThresh != 3 {
			t.Fatalf("view %+v", v)
		}
		in := LintInput{QMgr: mustQMgr(t, f), Queues: mustQueues(t, f), Consumers: []ConsumerView{v}}
		if !slices.ContainsFunc(Lint(in), func(x Finding) bool { return x.Rule == "R1b" && x.Queue == "ORDERS.IN" }) {
			t.Errorf("no R1b finding:\n%s", findingsText(Lint(in)))
		}
	})
}

func mustQMgr(t *testing.T, f *qmFixture) mqwatch.QMgrInfo {
	t.Helper()
	qm, err := f.pc.QMgr(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	return qm
}

func mustQueues(t *testing.T, f *qmFixture) []mqwatch.QueueInfo {
	t.Helper()
	qs, err := f.pc.Queues(f.ctx, "*")
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

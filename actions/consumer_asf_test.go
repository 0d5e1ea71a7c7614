package actions

import (
	"errors"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func TestConsumerDeadLetterHeaders(t *testing.T) {
	t.Run("R2b_BOQ_put_failure_reason_goes_into_the_MQDLH", func(t *testing.T) {
		f := newQM(t, "ALTER QLOCAL(ORDERS.BO) PUT(DISABLED)")
		c := f.consumer(ConsumerOptions{Style: Async, Queue: "ORDERS.IN", ApplName: "orders-listener"})
		orig := f.putText("ORDERS.IN")
		f.pollN(c, 4, failing)
		ms := f.browse("QM1.DEADQ")
		if len(ms) != 1 {
			t.Fatalf("DEADQ holds %d", len(ms))
		}
		d := dlhOf(t, ms[0])
		if d.Reason != mqfmt.RCPutInhibited || mqfmt.Trim(d.DestQName) != "ORDERS.IN" || mqfmt.Trim(d.DestQMgrName) != "QM1" ||
			d.Format != mqfmt.FmtString || d.Encoding != orig.Encoding || d.CodedCharSetId != orig.CodedCharSetId ||
			d.PutApplType != mqfmt.ATJava || mqfmt.Trim(d.PutApplName) != "orders-listener" {
			t.Errorf("MQDLH %+v", d)
		}
		if string(ms[0].Data[mqfmt.DLHLen:]) != "order 42" || ms[0].MD.PutApplName != orig.PutApplName {
			t.Errorf("body %q, context %q", ms[0].Data[mqfmt.DLHLen:], ms[0].MD.PutApplName)
		}
	})
	t.Run("R6a_asf_without_BOQ_dead_letters_with_2362", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: ASF, Queue: "NOBOQ.IN"})
		f.putText("NOBOQ.IN")
		res, err := f.pollN(c, 3, failing)
		if err != nil || res.Fate != MoveToDeadQ || res.Reason != mqfmt.RCBackoutThresholdReached {
			t.Fatalf("res %+v err %v", res, err)
		}
		d := dlhOf(t, f.browse("QM1.DEADQ")[0])
		if d.Reason != 2362 || mqfmt.Trim(d.PutApplName) != ASFPutApplName || d.PutApplType != 28 {
			t.Errorf("MQDLH %+v", d)
		}
	})
	t.Run("R6_asf_removes_a_message_it_cannot_parse_with_2364", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: ASF, Queue: "ORDERS.IN"})
		md := mqfmt.NewMQMD()
		md.Format, md.Encoding = mqfmt.FmtRFH2, mqfmt.EncodingNative
		f.put("ORDERS.IN", md, []byte("RFH garbage that is no header"))
		res, err := c.Poll(f.ctx, succeeding)
		if err != nil || res.Fate != MoveToDeadQ || dlhOf(t, f.browse("QM1.DEADQ")[0]).Reason != mqfmt.RCJMSFormatError {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
}

func TestConsumerReports(t *testing.T) {
	t.Run("R6c_asf_exception_report_goes_to_the_ReplyToQ", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: ASF, Queue: "NOBOQ.IN"})
		orig := f.putText("NOBOQ.IN", func(md *mqfmt.MQMD) { md.Report, md.ReplyToQ = mqfmt.ROException, "APP.REPLY" })
		f.pollN(c, 3, failing)
		reps := f.browse("APP.REPLY")
		if len(reps) != 1 || f.depth("QM1.DEADQ") != 1 {
			t.Fatalf("reports %d, DEADQ %d", len(reps), f.depth("QM1.DEADQ"))
		}
		r := reps[0]
		if r.MD.MsgType != mqfmt.MTReport || r.MD.Feedback != 2362 || r.MD.CorrelId != orig.MsgId || r.MD.MsgId == orig.MsgId ||
			len(r.Data) != 0 || r.MD.PutApplType != mqfmt.ATJava || r.MD.PutApplName[:len(ASFPutApplName)] != ASFPutApplName {
			t.Errorf("report %+v, %d bytes", r.MD, len(r.Data))
		}
	})
	t.Run("R6d_asf_report_with_data_after_a_failed_BOQ_put_carries_its_reason", func(t *testing.T) {
		f := newQM(t, "ALTER QLOCAL(ORDERS.BO) PUT(DISABLED)")
		c := f.consumer(ConsumerOptions{Style: ASF, Queue: "ORDERS.IN"})
		f.putText("ORDERS.IN", func(md *mqfmt.MQMD) { md.Report, md.ReplyToQ = mqfmt.ROExceptionWithData, "APP.REPLY" })
		f.pollN(c, 4, failing)
		reps := f.browse("APP.REPLY")
		if len(reps) != 1 || reps[0].MD.Feedback != int32(mqfmt.RCPutInhibited) || string(reps[0].Data) != "order 42" {
			t.Fatalf("reports %+v", reps)
		}
	})
	t.Run("R6g_report_without_ReplyToQ_is_dead_lettered", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: ASF, Queue: "NOBOQ.IN"})
		f.putText("NOBOQ.IN", func(md *mqfmt.MQMD) { md.Report = mqfmt.ROException | mqfmt.ROPassMsgId })
		res, _ := f.pollN(c, 3, failing)
		ms := f.browse("QM1.DEADQ")
		if len(ms) != 2 || res.ReportErr != nil {
			t.Fatalf("DEADQ holds %d, report error %v", len(ms), res.ReportErr)
		}
		if d := dlhOf(t, ms[1]); d.Reason != rcMissingReplyToQ || ms[1].MD.MsgType != mqfmt.MTReport {
			t.Errorf("second DEADQ message: %+v, MsgType %d", d, ms[1].MD.MsgType)
		}
	})
}

func TestConsumerDeliveryCount(t *testing.T) {
	t.Run("R9c_MDB_pauses_after_maxDeliveryFailures", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: DeliveryCount, Queue: "LOOP.IN", Policy: DeliveryCountPolicy{MaxDeliveryFailures: 2}})
		f.putText("LOOP.IN")
		f.pollN(c, 2, failing)
		if _, err := c.Poll(f.ctx, succeeding); !errors.Is(err, ErrPaused) || !c.Paused() {
			t.Fatalf("err %v paused %v", err, c.Paused())
		}
		c.Resume()
		if res, err := c.Poll(f.ctx, succeeding); err != nil || res.Fate != Deliver || f.depth("LOOP.IN") != 0 {
			t.Fatalf("after resume: %+v %v", res, err)
		}
	})
	t.Run("R9b_application_moves_poison_to_its_special_queue", func(t *testing.T) {
		f := newQM(t, "")
		c := f.consumer(ConsumerOptions{Style: DeliveryCount, Queue: "LOOP.IN",
			Policy: DeliveryCountPolicy{Threshold: 3, OnPoison: PoisonMove, SpecialQueue: "FAILED.Q"}})
		f.putText("LOOP.IN")
		res, err := f.pollN(c, 3, failing)
		if err != nil || res.Fate != MoveToQueue || f.depth("FAILED.Q") != 1 || f.depth("LOOP.IN") != 0 {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("R9b_special_queue_put_fails_and_the_message_returns", func(t *testing.T) {
		f := newQM(t, "ALTER QLOCAL(FAILED.Q) PUT(DISABLED)")
		c := f.consumer(ConsumerOptions{Style: DeliveryCount, Queue: "LOOP.IN",
			Policy: DeliveryCountPolicy{Threshold: 3, OnPoison: PoisonMove, SpecialQueue: "FAILED.Q"}})
		f.putText("LOOP.IN")
		res, err := f.pollN(c, 3, failing)
		if err != nil || res.Fate != ReturnToInput || f.depth("LOOP.IN") != 1 {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
}

package actions

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func TestExceptionReport(t *testing.T) {
	body := strings.Repeat("0123456789", 30) // 300 bytes
	jmsMD, jmsData := jmsMessage(t, mqfmt.EncodingNative, binary.LittleEndian, body)
	hdrLen := len(jmsData) - len(body)
	plain := receivedMD()
	brokenMD := receivedMD()
	brokenMD.Format = mqfmt.FmtRFH2
	broken := []byte(strings.Repeat("x", 250))
	for _, tc := range []struct {
		name     string
		md       mqfmt.MQMD
		data     []byte
		report   int32
		wantData []byte
	}{
		{name: "R6c_exception_carries_no_data", md: jmsMD, data: jmsData, report: mqfmt.ROException, wantData: []byte{}},
		{name: "R6d_exception_with_data_carries_headers_and_100_body_bytes", md: jmsMD, data: jmsData, report: mqfmt.ROExceptionWithData,
			wantData: jmsData[:hdrLen+100]},
		{name: "R6d_short_body_is_carried_whole", md: plain, data: []byte("short"), report: mqfmt.ROExceptionWithData, wantData: []byte("short")},
		{name: "R6d_undecodable_header_counts_as_body", md: brokenMD, data: broken, report: mqfmt.ROExceptionWithData, wantData: broken[:100]},
		{name: "R6e_exception_with_full_data_carries_everything", md: jmsMD, data: jmsData, report: mqfmt.ROExceptionWithFullData, wantData: jmsData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			orig := tc.md
			orig.Report = tc.report
			r, ok := ExceptionReport(orig, tc.data, mqfmt.RCBackoutThresholdReached, testNow)
			if !ok {
				t.Fatal("no report")
			}
			if !bytes.Equal(r.Data, tc.wantData) {
				t.Errorf("data %d bytes, want %d", len(r.Data), len(tc.wantData))
			}
			if len(r.Data) > 0 && &r.Data[0] == &tc.data[0] {
				t.Error("report data aliases the original")
			}
			want := orig
			want.MsgType, want.Feedback, want.BackoutCount = mqfmt.MTReport, 2362, 0
			want.Report, want.Expiry = 0, -1
			want.ReplyToQ, want.ReplyToQMgr = "", ""
			want.MsgId, want.CorrelId = [24]byte{}, orig.MsgId
			want.PutApplType, want.PutApplName, want.ApplOriginData = 28, "MQ JMS ConnectionConsumer", ""
			want.PutDate, want.PutTime = "20240102", "03040506"
			want.OriginalLength = -1
			if r.MD != want {
				t.Errorf("MQMD\n got %+v\nwant %+v", r.MD, want)
			}
			if r.ToQ != "APP.REPLY" || r.ToQMgr != "QM2" || !r.NewMsgID {
				t.Errorf("to %s on %s, new MsgId %v", r.ToQ, r.ToQMgr, r.NewMsgID)
			}
			if r.MD.Encoding != orig.Encoding || r.MD.CodedCharSetId != orig.CodedCharSetId || r.MD.Format != orig.Format {
				t.Error("report does not describe its data with the original's Format/Encoding/CCSID")
			}
		})
	}
}

func TestExceptionReportOptions(t *testing.T) {
	md := receivedMD()
	t.Run("R6f_no_exception_option_no_report", func(t *testing.T) {
		md := md
		md.Report = mqfmt.ROCOA | mqfmt.RODiscardMsg
		if _, ok := ExceptionReport(md, nil, 2362, testNow); ok {
			t.Error("report built")
		}
	})
	t.Run("R6g_pass_msg_id_and_pass_correl_id", func(t *testing.T) {
		md := md
		md.Report = mqfmt.ROException | mqfmt.ROPassMsgId | mqfmt.ROPassCorrelId
		r, _ := ExceptionReport(md, nil, 2362, testNow)
		if r.MD.MsgId != md.MsgId || r.MD.CorrelId != md.CorrelId || r.NewMsgID {
			t.Errorf("MsgId %q CorrelId %q new %v", r.MD.MsgId, r.MD.CorrelId, r.NewMsgID)
		}
	})
	t.Run("R6g_defaults_new_msg_id_and_copy_msg_id_to_correl_id", func(t *testing.T) {
		md := md
		md.Report = mqfmt.ROException
		r, _ := ExceptionReport(md, nil, 2362, testNow)
		if r.MD.MsgId != [24]byte{} || r.MD.CorrelId != md.MsgId || !r.NewMsgID {
			t.Errorf("MsgId %q CorrelId %q new %v", r.MD.MsgId, r.MD.CorrelId, r.NewMsgID)
		}
	})
	t.Run("R6g_pass_discard_and_expiry_passes_both", func(t *testing.T) {
		md := md
		md.Report = mqfmt.ROException | mqfmt.ROPassDiscardAndExpiry | mqfmt.RODiscardMsg
		r, _ := ExceptionReport(md, nil, 2362, testNow)
		if r.MD.Report != mqfmt.RODiscardMsg || r.MD.Expiry != 600 {
			t.Errorf("Report %#x Expiry %d", r.MD.Report, r.MD.Expiry)
		}
	})
	t.Run("R6g_segment_report_is_a_segment_with_original_length", func(t *testing.T) {
		md := md
		md.Report = mqfmt.ROException
		md.MsgFlags, md.Offset, md.MsgSeqNumber = mfLastSegment, 4000, 3
		copy(md.GroupId[:], "group")
		r, _ := ExceptionReport(md, make([]byte, 700), 2362, testNow)
		if r.MD.OriginalLength != 700 || r.MD.GroupId != md.GroupId || r.MD.Offset != 4000 || r.MD.MsgFlags != mfLastSegment || r.MD.MsgSeqNumber != 3 {
			t.Errorf("MD %+v", r.MD)
		}
	})
	t.Run("R6g_blank_reply_to_queue_is_reported_blank", func(t *testing.T) {
		md := md
		md.Report, md.ReplyToQ, md.ReplyToQMgr = mqfmt.ROException, strings.Repeat(" ", 48), ""
		r, _ := ExceptionReport(md, nil, 2362, testNow)
		if r.ToQ != "" {
			t.Errorf("ToQ %q", r.ToQ)
		}
	})
	t.Run("R6c_report_encodes_as_a_valid_MQMD", func(t *testing.T) {
		md := md
		md.Report = mqfmt.ROException
		r, _ := ExceptionReport(md, nil, 2362, testNow)
		b := r.MD.Encode(binary.BigEndian)
		got, err := mqfmt.DecodeMQMD(b, binary.BigEndian)
		if err != nil || !bytes.Equal(got.Encode(binary.BigEndian), b) || got.MsgType != mqfmt.MTReport || got.Feedback != 2362 {
			t.Errorf("round trip: %v, %+v", err, got)
		}
	})
}

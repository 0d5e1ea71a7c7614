package ui

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// summaryLines builds the current tab from the message's summary: the
// screen of a message never read (a playback: a recording keeps each
// message's summary as browsed, never its body). It reads only d.sum, so
// no tab depends on a fetch that was never made.
func (d *detailScreen) summaryLines() []string {
	why := " this message was not read: shown from its summary as browsed"
	if d.recorded {
		why = " from the recording: this message's summary as browsed; its body was not recorded"
	}
	out := []string{d.st.Muted.Render(why), ""}
	switch d.tab {
	case 0:
		return append(out, d.summaryMQMD()...)
	case 1:
		return append(out, d.summaryRFH2()...)
	case 2:
		return append(out, d.summaryDLH()...)
	}
	s := &d.sum
	return append(out, d.field("Body", fmt.Sprintf("%d bytes in all", s.Length), "not recorded"),
		d.field("Format", quote(s.BodyFormat), mqfmt.FormatName(s.BodyFormat)),
		d.field("CodedCharSetId", fmt.Sprint(s.BodyCCSID), mqfmt.CCSIDName(s.BodyCCSID)),
		d.field("Offset", fmt.Sprint(s.BodyOffset), "after the headers"))
}

func (d *detailScreen) summaryMQMD() []string {
	s, f := &d.sum, d.field
	putTime := "not set (invalid PutDate/PutTime)"
	if !s.PutTime.IsZero() {
		putTime = s.PutTime.UTC().Format("2006-01-02 15:04:05.00 MST")
	}
	persistence := int32(0)
	if s.Persistent {
		persistence = 1
	}
	out := []string{
		f("Report", fmt.Sprintf("0x%08X", uint32(s.Report)), strings.Join(mqfmt.ReportOptions(s.Report), " ")),
		f("MsgType", fmt.Sprint(s.MsgType), mqfmt.MsgTypeName(s.MsgType)),
		f("Expiry", fmt.Sprint(s.Expiry), expiryMeaning(s.Expiry)),
		f("Encoding", s.Encoding.String(), ""),
		f("CodedCharSetId", fmt.Sprint(s.CCSID), mqfmt.CCSIDName(s.CCSID)),
		f("Format", quote(s.Format), mqfmt.FormatName(s.Format)),
		f("Priority", fmt.Sprint(s.Priority), ""),
		f("Persistence", fmt.Sprint(persistence), mqfmt.PersistenceName(persistence)),
		f("MsgId", msgIDHex(s.MsgId), printable(s.MsgId[:])),
		f("CorrelId", msgIDHex(s.CorrelId), printable(s.CorrelId[:])),
		d.backoutLine(s.BackoutCount),
		f("ReplyToQ", quote(s.ReplyToQ), ""),
		f("ReplyToQMgr", quote(s.ReplyToQMgr), ""),
		f("UserIdentifier", quote(s.UserId), ""),
		f("PutApplName", quote(s.PutApplName), ""),
		f("PutDate/PutTime", putTime, ""),
		f("Length", fmt.Sprintf("%d bytes", s.Length), ""),
	}
	if g := s.Group; g != nil {
		out = append(out, f("GroupId", fmt.Sprintf("%X", g.GroupId[:]), ""), f("MsgSeqNumber", fmt.Sprint(g.MsgSeqNumber), ""),
			f("Offset", fmt.Sprint(g.Offset), ""), f("MsgFlags", fmt.Sprint(g.MsgFlags), ""))
	}
	if s.DecodeErr != "" {
		out = append(out, "", d.st.Danger.Render(" header chain: "+mqfmt.Sanitize(s.DecodeErr)))
	}
	return out
}

func (d *detailScreen) summaryRFH2() []string {
	s := &d.sum
	if !s.HasRFH2 {
		return []string{d.st.Muted.Render(" no MQRFH2 in this message")}
	}
	return []string{d.st.Muted.Render(" an MQRFH2; of its folders the summary keeps:"),
		d.field("jms/Dst", s.JMSDst, ""), d.field("Type", s.JMSType, "")}
}

func (d *detailScreen) summaryDLH() []string {
	s := &d.sum
	if !s.HasDLH {
		return []string{d.st.Muted.Render(" no dead-letter header: this message was not put on the DEADQ by a queue manager or channel")}
	}
	rc := mqfmt.Reason(s.DLHReason)
	why := rc.Describe()
	if d.dlhWhy != "" {
		why = d.dlhWhy
	}
	putTime := ""
	if !s.DLHPutTime.IsZero() {
		putTime = s.DLHPutTime.UTC().Format("2006-01-02 15:04:05.00 MST")
	}
	out := []string{
		d.st.Danger.Render(" " + mqfmt.Sanitize(why)),
		"",
		d.field("Reason", fmt.Sprint(s.DLHReason), rc.String()),
		d.field("DestQName", quote(s.DLHDestQ), "where it was going"),
		d.field("DestQMgrName", quote(s.DLHDestQMgr), ""),
		d.field("Format", quote(s.DLHFormat), mqfmt.FormatName(s.DLHFormat)),
		d.field("PutApplName", quote(s.DLHPutAppl), "who dead-lettered it"),
		d.field("PutDate/PutTime", putTime, ""),
	}
	return append(out, d.ruleLines()...)
}

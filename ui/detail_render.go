package ui

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// render builds the lines of the current tab. Every string from the message
// goes through mqfmt.Sanitize: no byte of a message reaches the terminal raw.
func (d *detailScreen) lines(w int) []string {
	switch d.tab {
	case 0:
		return d.mqmdLines()
	case 1:
		return d.rfh2Lines()
	case 2:
		return d.dlhLines()
	case 3:
		return d.bodyLines(w)
	}
	return d.routeLines()
}

func (d *detailScreen) field(name, value, meaning string) string {
	s := fmt.Sprintf(" %-18s %s", name, mqfmt.Sanitize(value))
	if meaning != "" {
		s += d.st.Muted.Render("  " + mqfmt.Sanitize(meaning))
	}
	return s
}

func (d *detailScreen) mqmdLines() []string {
	md := &d.msg.MD
	putTime := "not set (invalid PutDate/PutTime)"
	if t, err := mqfmt.ParsePutTime(md.PutDate, md.PutTime); err == nil {
		putTime = t.Format("2006-01-02 15:04:05.00 MST")
	}
	f := d.field
	return []string{
		f("Version", fmt.Sprint(md.Version), ""),
		f("Report", fmt.Sprintf("0x%08X", uint32(md.Report)), strings.Join(mqfmt.ReportOptions(md.Report), " ")),
		f("MsgType", fmt.Sprint(md.MsgType), mqfmt.MsgTypeName(md.MsgType)),
		f("Expiry", fmt.Sprint(md.Expiry), expiryMeaning(md.Expiry)),
		f("Feedback", fmt.Sprint(md.Feedback), feedbackMeaning(md.Feedback)),
		f("Encoding", md.Encoding.String(), ""),
		f("CodedCharSetId", fmt.Sprint(md.CodedCharSetId), mqfmt.CCSIDName(md.CodedCharSetId)),
		f("Format", quote(md.Format), mqfmt.FormatName(md.Format)),
		f("Priority", fmt.Sprint(md.Priority), ""),
		f("Persistence", fmt.Sprint(md.Persistence), mqfmt.PersistenceName(md.Persistence)),
		f("MsgId", msgIDHex(md.MsgId), printable(md.MsgId[:])),
		f("CorrelId", msgIDHex(md.CorrelId), printable(md.CorrelId[:])),
		d.backoutLine(md.BackoutCount),
		f("ReplyToQ", quote(md.ReplyToQ), ""),
		f("ReplyToQMgr", quote(md.ReplyToQMgr), ""),
		f("UserIdentifier", quote(md.UserIdentifier), ""),
		f("AccountingToken", fmt.Sprintf("%X", md.AccountingToken[:]), ""),
		f("ApplIdentityData", quote(md.ApplIdentityData), ""),
		f("PutApplType", fmt.Sprint(md.PutApplType), mqfmt.ApplTypeName(md.PutApplType)),
		f("PutApplName", quote(md.PutApplName), ""),
		f("PutDate/PutTime", md.PutDate+" "+md.PutTime, putTime),
		f("ApplOriginData", quote(md.ApplOriginData), ""),
		f("GroupId", fmt.Sprintf("%X", md.GroupId[:]), ""),
		f("MsgSeqNumber", fmt.Sprint(md.MsgSeqNumber), ""),
		f("Offset", fmt.Sprint(md.Offset), ""),
		f("MsgFlags", fmt.Sprint(md.MsgFlags), ""),
		f("OriginalLength", fmt.Sprint(md.OriginalLength), ""),
		f("Length", fmt.Sprintf("%d bytes", d.msg.Length), truncatedNote(d.msg)),
	}
}

func (d *detailScreen) backoutLine(bc int32) string {
	s := d.field("BackoutCount", fmt.Sprint(bc), fmt.Sprintf("rolled back %d times; JMSXDeliveryCount %d", bc, bc+1))
	if bc > 0 {
		return d.st.Warning.Render(s)
	}
	return s
}

func expiryMeaning(e int32) string {
	if e < 0 {
		return "unlimited"
	}
	return fmt.Sprintf("%.1f s left", float64(e)/10)
}

func feedbackMeaning(fb int32) string {
	if fb == 0 {
		return "MQFB_NONE"
	}
	return mqfmt.Reason(fb).String()
}

func truncatedNote(m interface{ Truncated() bool }) string {
	if m.Truncated() {
		return "only a prefix was read"
	}
	return ""
}

func quote(s string) string { return "'" + mqfmt.Trim(s) + "'" }

// printable shows the ASCII reading of an id ("AMQ QM1 ...") next to its hex.
func printable(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 0x20 && c < 0x7f {
			out[i] = c
		} else {
			out[i] = '.'
		}
	}
	return string(out)
}

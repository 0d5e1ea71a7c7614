package mqfmt

import (
	"fmt"
	"strings"
)

// Field is one named field of a structure as an operator reads it: its value
// (sanitised, character fields trimmed and quoted) and the named constant or
// meaning behind it. The dashboard and `poisonwatch decode` both show these.
type Field struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Meaning string `json:"meaning,omitempty"`
}

func chars(s string) string { return "'" + Sanitize(Trim(s)) + "'" }

func num(v int32) string { return fmt.Sprint(v) }

func hexID(b []byte) string { return fmt.Sprintf("%X", b) }

// DescribeMQMD lists every MQMD field with its named constants.
func DescribeMQMD(md *MQMD) []Field {
	putTime := "not set (invalid PutDate/PutTime)"
	if t, err := ParsePutTime(md.PutDate, md.PutTime); err == nil {
		putTime = t.Format("2006-01-02 15:04:05.00 UTC")
	}
	expiry := "unlimited"
	if md.Expiry >= 0 {
		expiry = fmt.Sprintf("%.1f s left", float64(md.Expiry)/10)
	}
	return []Field{
		{"Version", num(md.Version), ""},
		{"Report", fmt.Sprintf("0x%08X", uint32(md.Report)), strings.Join(ReportOptions(md.Report), " ")},
		{"MsgType", num(md.MsgType), MsgTypeName(md.MsgType)},
		{"Expiry", num(md.Expiry), expiry},
		{"Feedback", num(md.Feedback), Feedback(md.Feedback).String()},
		{"Encoding", num(int32(md.Encoding)), EncodingName(md.Encoding)},
		{"CodedCharSetId", num(md.CodedCharSetId), CCSIDName(md.CodedCharSetId)},
		{"Format", chars(md.Format), FormatName(md.Format)},
		{"Priority", num(md.Priority), ""},
		{"Persistence", num(md.Persistence), PersistenceName(md.Persistence)},
		{"MsgId", hexID(md.MsgId[:]), ""},
		{"CorrelId", hexID(md.CorrelId[:]), ""},
		{"BackoutCount", num(md.BackoutCount), fmt.Sprintf("rolled back %d times (JMSXDeliveryCount %d)", md.BackoutCount, md.BackoutCount+1)},
		{"ReplyToQ", chars(md.ReplyToQ), ""},
		{"ReplyToQMgr", chars(md.ReplyToQMgr), ""},
		{"UserIdentifier", chars(md.UserIdentifier), ""},
		{"AccountingToken", hexID(md.AccountingToken[:]), ""},
		{"ApplIdentityData", chars(md.ApplIdentityData), ""},
		{"PutApplType", num(md.PutApplType), ApplTypeName(md.PutApplType)},
		{"PutApplName", chars(md.PutApplName), ""},
		{"PutDate", chars(md.PutDate), putTime},
		{"PutTime", chars(md.PutTime), ""},
		{"ApplOriginData", chars(md.ApplOriginData), ""},
		{"GroupId", hexID(md.GroupId[:]), ""},
		{"MsgSeqNumber", num(md.MsgSeqNumber), ""},
		{"Offset", num(md.Offset), ""},
		{"MsgFlags", num(md.MsgFlags), ""},
		{"OriginalLength", num(md.OriginalLength), ""},
	}
}

// DescribeHeader lists the fields of one header in a chain.
func DescribeHeader(h *Header) []Field {
	switch {
	case h.DLH != nil:
		d := h.DLH
		return []Field{
			{"Reason", num(int32(d.Reason)), d.Reason.Describe()},
			{"DestQName", chars(d.DestQName), "the queue the message was meant for"},
			{"DestQMgrName", chars(d.DestQMgrName), ""},
			{"Encoding", num(int32(d.Encoding)), EncodingName(d.Encoding)},
			{"CodedCharSetId", num(d.CodedCharSetId), CCSIDName(d.CodedCharSetId)},
			{"Format", chars(d.Format), FormatName(d.Format)},
			{"PutApplType", num(d.PutApplType), ApplTypeName(d.PutApplType)},
			{"PutApplName", chars(d.PutApplName), "who put it on the dead-letter queue"},
			{"PutDate", chars(d.PutDate), ""},
			{"PutTime", chars(d.PutTime), ""},
		}
	case h.RFH2 != nil:
		r := h.RFH2
		fs := []Field{
			{"Encoding", num(int32(r.Encoding)), EncodingName(r.Encoding)},
			{"CodedCharSetId", num(r.CodedCharSetId), CCSIDName(r.CodedCharSetId)},
			{"Format", chars(r.Format), FormatName(r.Format)},
			{"Flags", num(r.Flags), ""},
			{"NameValueCCSID", num(r.NameValueCCSID), CCSIDName(r.NameValueCCSID)},
		}
		for _, f := range r.Folders {
			fs = append(fs, folderFields(Sanitize(f.Name), f.Elements)...)
		}
		return fs
	case h.XQH != nil:
		x := h.XQH
		return []Field{
			{"RemoteQName", chars(x.RemoteQName), "destination on the remote queue manager"},
			{"RemoteQMgrName", chars(x.RemoteQMgrName), ""},
			{"MsgDesc.Format", chars(x.MsgDesc.Format), FormatName(x.MsgDesc.Format)},
			{"MsgDesc.MsgId", hexID(x.MsgDesc.MsgId[:]), ""},
			{"MsgDesc.PutApplName", chars(x.MsgDesc.PutApplName), ""},
		}
	case h.TM != nil:
		t := h.TM
		return []Field{
			{"QName", chars(t.QName), "the queue whose trigger fired"},
			{"ProcessName", chars(t.ProcessName), ""},
			{"TriggerData", chars(t.TriggerData), ""},
			{"ApplType", num(t.ApplType), ApplTypeName(t.ApplType)},
			{"ApplId", chars(t.ApplId), "the program the trigger monitor tried to start"},
		}
	case h.MDE != nil:
		m := h.MDE
		return []Field{
			{"Encoding", num(int32(m.Encoding)), EncodingName(m.Encoding)},
			{"CodedCharSetId", num(m.CodedCharSetId), CCSIDName(m.CodedCharSetId)},
			{"Format", chars(m.Format), FormatName(m.Format)},
			{"MsgSeqNumber", num(m.MsgSeqNumber), ""},
		}
	}
	return nil
}

// folderFields flattens an RFH2 folder into "folder.path = value" fields.
func folderFields(prefix string, es []Element) []Field {
	var out []Field
	for _, e := range es {
		name := prefix + "." + Sanitize(e.Name)
		if e.IsGroup() {
			out = append(out, folderFields(name, e.Children)...)
			continue
		}
		out = append(out, Field{Name: name, Value: Sanitize(e.Value), Meaning: Sanitize(PropertyMeaning(prefix, e.Name, e.DataType, e.Value))})
	}
	return out
}

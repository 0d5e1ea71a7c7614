package mqwatch

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Summarize extracts a Summary from a browsed message: MQMD facts, the
// dead-letter header and JMS facts of its header chain, and a bounded body
// prefix. A malformed header chain is recorded in DecodeErr, never fatal.
func Summarize(m *Message) Summary {
	md := &m.MD
	s := Summary{
		MsgId: md.MsgId, CorrelId: md.CorrelId,
		BackoutCount: md.BackoutCount,
		Persistent:   md.Persistence == mqfmt.PerPersistent,
		Priority:     md.Priority,
		Length:       m.Length,
		Format:       mqfmt.Sanitize(mqfmt.Trim(md.Format)),
		CCSID:        md.CodedCharSetId,
		Encoding:     md.Encoding,
		Report:       md.Report,
		Expiry:       md.Expiry,
		MsgType:      md.MsgType,
		ReplyToQ:     mqfmt.Sanitize(mqfmt.Trim(md.ReplyToQ)),
		ReplyToQMgr:  mqfmt.Sanitize(mqfmt.Trim(md.ReplyToQMgr)),
		PutApplName:  mqfmt.Sanitize(mqfmt.Trim(md.PutApplName)),
		UserId:       mqfmt.Sanitize(mqfmt.Trim(md.UserIdentifier)),
		BodyFormat:   mqfmt.Sanitize(mqfmt.Trim(md.Format)),
		BodyCCSID:    md.CodedCharSetId,
	}
	s.PutTime = mqfmt.PutTimeOf(md.PutDate, md.PutTime)
	s.Group = GroupPosOf(md)
	summarizeHeaders(&s, m)
	s.ToolReply = IsToolReply(md.MsgType, &s)
	return s
}

// ToolReplyQPrefix begins the name of every dynamic queue this tool creates
// for PCF replies.
const ToolReplyQPrefix = "POISONWATCH."

// IsToolReply reports whether a dead-lettered message is a PCF reply to this
// tool whose reply queue had gone (an older version asked for no
// MQRO_DISCARD_MSG, or a queue manager ignored it): a reply (MQMT_REPLY) in
// format MQADMIN addressed to one of the tool's reply queues. The dashboard
// must not count it as an incident.
func IsToolReply(msgType int32, s *Summary) bool {
	return s.HasDLH && msgType == mqfmt.MTReply && s.DLHFormat == "MQADMIN" &&
		strings.HasPrefix(s.DLHDestQ, ToolReplyQPrefix)
}

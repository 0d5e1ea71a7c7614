package mqwatch

import (
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
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
		PutApplName:  mqfmt.Sanitize(mqfmt.Trim(md.PutApplName)),
		UserId:       mqfmt.Sanitize(mqfmt.Trim(md.UserIdentifier)),
		BodyFormat:   mqfmt.Sanitize(mqfmt.Trim(md.Format)),
		BodyCCSID:    md.CodedCharSetId,
	}
	s.PutTime, _ = mqfmt.ParsePutTime(md.PutDate, md.PutTime)
	summarizeHeaders(&s, m)
	return s
}

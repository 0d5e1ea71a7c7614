package mqwatch

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// summarizeHeaders fills the header-chain facts of a summary: the dead-letter
// header's reason and destination, the RFH2's JMS destination and type, and
// where the body starts. A chain that fails part way keeps what it decoded.
func summarizeHeaders(s *Summary, m *Message) {
	md := &m.MD
	ch, err := mqfmt.WalkChain(md.Format, md.Encoding, md.CodedCharSetId, m.Data)
	if err != nil {
		s.DecodeErr = mqfmt.Sanitize(err.Error())
	}
	if d := ch.DLH(); d != nil {
		s.HasDLH = true
		s.DLHReason = int32(d.Reason)
		s.DLHDestQ = mqfmt.Sanitize(mqfmt.Trim(d.DestQName))
		s.DLHDestQMgr = mqfmt.Sanitize(mqfmt.Trim(d.DestQMgrName))
		s.DLHPutAppl = mqfmt.Sanitize(mqfmt.Trim(d.PutApplName))
		s.DLHFormat = mqfmt.Sanitize(mqfmt.Trim(d.Format))
		s.DLHPutTime = mqfmt.PutTimeOf(d.PutDate, d.PutTime)
	}
	for _, r := range ch.RFH2s() {
		s.HasRFH2 = true
		j, _ := r.JMS()
		if j.Dst != "" {
			s.JMSDst = mqfmt.Sanitize(j.Dst)
		}
		if j.Type != "" {
			s.JMSType = mqfmt.Sanitize(j.Type)
		} else if j.Msd != "" && s.JMSType == "" {
			s.JMSType = mqfmt.Sanitize(j.Msd)
		}
	}
	b := ch.Body
	s.BodyFormat, s.BodyCCSID, s.BodyOffset = mqfmt.Sanitize(mqfmt.Trim(b.Format)), b.CCSID, b.Offset
	start := min(b.Offset, len(m.Data))
	end := min(start+SummaryBodyBytes, len(m.Data))
	s.BodyPrefix = append([]byte(nil), m.Data[start:end]...)
}

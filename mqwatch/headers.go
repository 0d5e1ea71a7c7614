package mqwatch

// summarizeHeaders fills the header-chain facts of a summary.
func summarizeHeaders(s *Summary, m *Message) {
	s.BodyOffset = 0
	n := min(len(m.Data), SummaryBodyBytes)
	s.BodyPrefix = append([]byte(nil), m.Data[:n]...)
}

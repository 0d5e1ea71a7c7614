package mqwatch

import (
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Summary is what a watcher keeps of a browsed message: enough to list, group,
// route and select it, never its whole body. Summaries are immutable once
// published in a snapshot.
type Summary struct {
	MsgId        [24]byte
	CorrelId     [24]byte
	PutTime      time.Time // zero when the MQMD's PutDate/PutTime are not valid
	BackoutCount int32
	Persistent   bool
	Priority     int32
	Length       int    // full message length
	Format       string // MQMD Format, trimmed
	CCSID        int32
	Encoding     mqfmt.Encoding
	Report       int32
	Expiry       int32
	// MsgType (MQMT_*) and where replies and reports go: what a replay of
	// a request or of a message asking for reports sets off.
	MsgType     int32
	ReplyToQ    string // trimmed and sanitised
	ReplyToQMgr string // trimmed and sanitised
	PutApplName string // trimmed and sanitised
	UserId      string
	// Dead-letter header, when the message has one.
	HasDLH      bool
	DLHReason   int32
	DLHDestQ    string
	DLHDestQMgr string
	DLHPutAppl  string
	DLHFormat   string
	// DLHPutTime is when the message was put on the dead-letter queue (the
	// MQDLH's PutDate/PutTime); PutTime is when it was first put.
	DLHPutTime time.Time
	// JMS facts from an MQRFH2, when the message has one.
	HasRFH2 bool
	JMSDst  string // jms/Dst, e.g. "queue:///ORDERS.IN"
	JMSType string // mcd/Type or jms message type
	// BodyFormat, BodyCCSID and BodyOffset describe the data after the headers.
	BodyFormat string
	BodyCCSID  int32
	BodyOffset int
	// BodyPrefix is the first bytes of the body after the headers, bounded
	// (SummaryBodyBytes): heads and the focused queue's messages have it, an
	// inventory does not keep it; the full message is read on demand.
	BodyPrefix []byte
	// ToolReply marks a PCF reply to this tool that outlived its reply queue
	// and was dead-lettered (see IsToolReply): not incident data.
	ToolReply bool
	// DecodeErr is set when the header chain could not be decoded.
	DecodeErr string
	// Group is set for a message in a group, a segment, or one that allows
	// segmentation (MQMD version 2 fields not at their defaults): what tells
	// apart messages that share a MsgId and CorrelId. Nil for any other.
	Group *GroupPos
	// Arrival orders summaries on one queue in the order they were first
	// seen: the watcher numbers each queue's from 1.
	Arrival uint64
}

// QueuedAt is when the message arrived where it is: on a DEADQ the time it
// was dead-lettered, else its put time.
func (s *Summary) QueuedAt() time.Time {
	if !s.DLHPutTime.IsZero() {
		return s.DLHPutTime
	}
	return s.PutTime
}

// Key identifies a message for the tool's purposes. MsgIds are not guaranteed
// unique, so actions verify CorrelId and put time as well before acting.
type Key struct {
	MsgId    [24]byte
	CorrelId [24]byte
}

// Key returns the summary's identity.
func (s *Summary) Key() Key { return Key{MsgId: s.MsgId, CorrelId: s.CorrelId} }

// SummaryBodyBytes bounds the body prefix a summary keeps.
const SummaryBodyBytes = 96

// summarize turns a message browsed on queue into a summary with the
// queue's next arrival number. Numbering each queue on its own keeps an
// inventory's numbers consecutive, which its storage needs no column for.
func (p *poller) summarize(queue string, m *Message) Summary {
	n := p.arrivals[queue] + 1
	p.arrivals[queue] = n
	s := Summarize(m)
	s.Arrival = n
	p.strs.summary(&s)
	return s
}

// interner shares the strings that repeat across thousands of summaries
// (destinations, formats, application names): heads and focused messages
// hold each once, and an inventory finds a summary's class comparing
// strings that are the same memory. Bounded: the table is dropped when it
// grows past internMax entries.
type interner struct{ m map[string]string }

const internMax = 4096

func (in *interner) s(v string) string {
	if v == "" {
		return ""
	}
	if x, ok := in.m[v]; ok {
		return x
	}
	if in.m == nil || len(in.m) >= internMax {
		in.m = make(map[string]string, 64)
	}
	in.m[v] = v
	return v
}

func (in *interner) summary(s *Summary) {
	for _, f := range []*string{&s.Format, &s.PutApplName, &s.UserId, &s.DLHDestQ, &s.DLHDestQMgr,
		&s.DLHPutAppl, &s.DLHFormat, &s.JMSDst, &s.JMSType, &s.BodyFormat, &s.DecodeErr} {
		*f = in.s(*f)
	}
}

// GroupPos is where a message stands in its group or logical message.
type GroupPos struct {
	GroupId      [24]byte
	MsgSeqNumber int32
	Offset       int32
	MsgFlags     int32
}

// GroupPosOf returns md's position, nil for a message outside any group or
// segmentation (MsgSeqNumber 1, the rest zero).
func GroupPosOf(md *mqfmt.MQMD) *GroupPos {
	if md.GroupId == ([24]byte{}) && md.MsgSeqNumber == 1 && md.Offset == 0 && md.MsgFlags == 0 {
		return nil
	}
	return &GroupPos{GroupId: md.GroupId, MsgSeqNumber: md.MsgSeqNumber, Offset: md.Offset, MsgFlags: md.MsgFlags}
}

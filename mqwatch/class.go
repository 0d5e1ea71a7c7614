package mqwatch

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Class is what the messages of one kind share: every Summary field that is
// not an identity, a time, a size or a counter. A DEADQ of a million messages
// usually holds a few hundred classes (reason × destination × writer), so an
// inventory keeps each class once and every message points at its own.
// A Class is immutable once an inventory holds it.
type Class struct {
	Format      string
	CCSID       int32
	Encoding    mqfmt.Encoding
	Report      int32
	Priority    int32
	Persistent  bool
	PutApplName string
	UserId      string
	HasDLH      bool
	DLHReason   int32
	DLHDestQ    string
	DLHDestQMgr string
	DLHPutAppl  string
	DLHFormat   string
	HasRFH2     bool
	JMSDst      string
	JMSType     string
	BodyFormat  string
	BodyCCSID   int32
	ToolReply   bool
	DecodeErr   string
	MsgType     int32
	ReplyToQ    string
	ReplyToQMgr string
}

// Class returns the summary's class.
func (s *Summary) Class() Class {
	return Class{Format: s.Format, CCSID: s.CCSID, Encoding: s.Encoding, Report: s.Report,
		Priority: s.Priority, Persistent: s.Persistent, PutApplName: s.PutApplName, UserId: s.UserId,
		HasDLH: s.HasDLH, DLHReason: s.DLHReason, DLHDestQ: s.DLHDestQ, DLHDestQMgr: s.DLHDestQMgr,
		DLHPutAppl: s.DLHPutAppl, DLHFormat: s.DLHFormat, HasRFH2: s.HasRFH2, JMSDst: s.JMSDst,
		JMSType: s.JMSType, BodyFormat: s.BodyFormat, BodyCCSID: s.BodyCCSID, ToolReply: s.ToolReply,
		DecodeErr: s.DecodeErr, MsgType: s.MsgType, ReplyToQ: s.ReplyToQ, ReplyToQMgr: s.ReplyToQMgr}
}

// Apply copies the class's fields into s.
func (c *Class) Apply(s *Summary) {
	s.Format, s.CCSID, s.Encoding, s.Report = c.Format, c.CCSID, c.Encoding, c.Report
	s.Priority, s.Persistent, s.PutApplName, s.UserId = c.Priority, c.Persistent, c.PutApplName, c.UserId
	s.HasDLH, s.DLHReason, s.DLHDestQ, s.DLHDestQMgr = c.HasDLH, c.DLHReason, c.DLHDestQ, c.DLHDestQMgr
	s.DLHPutAppl, s.DLHFormat, s.HasRFH2, s.JMSDst = c.DLHPutAppl, c.DLHFormat, c.HasRFH2, c.JMSDst
	s.JMSType, s.BodyFormat, s.BodyCCSID, s.ToolReply = c.JMSType, c.BodyFormat, c.BodyCCSID, c.ToolReply
	s.DecodeErr = c.DecodeErr
	s.MsgType, s.ReplyToQ, s.ReplyToQMgr = c.MsgType, c.ReplyToQ, c.ReplyToQMgr
}

// classTable holds the classes of one line of inventories (each appended to
// the last). It only grows: readers of a published inventory index the
// prefix of all they were given, which is never written again, and only the
// goroutine that appends uses index.
type classTable struct {
	index map[Class]uint32
	all   []*Class
	last  uint32 // the class of the previous append: runs of one class are common
}

func newClassTable() *classTable { return &classTable{index: map[Class]uint32{}} }

// id returns the class's number, adding it when new.
func (t *classTable) id(c *Class) uint32 {
	if int(t.last) < len(t.all) && *t.all[t.last] == *c {
		return t.last
	}
	id, ok := t.index[*c]
	if !ok {
		id = uint32(len(t.all))
		cp := *c
		t.all = append(t.all, &cp)
		t.index[cp] = id
	}
	t.last = id
	return id
}

// compactClasses is the table size below which a table is never rebuilt;
// above it, a table more than twice as long as the inventory it serves holds
// mostly classes of messages long gone, and the inventory is re-encoded with
// a fresh one.
const compactClasses = 4096

func (t *classTable) bloated(live int) bool {
	return len(t.all) > compactClasses && len(t.all) > 2*live
}

package mqwatch

import (
	"context"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Connector opens connections to one queue manager. A backend is a Connector.
type Connector interface {
	// Connect opens a connection (an MQI hconn). Each connection allows one call
	// at a time; a concurrent call fails with MQRC_CALL_IN_PROGRESS (2219).
	Connect(ctx context.Context, opts ConnectOptions) (Conn, error)
}

// ConnectOptions identify the connecting application. Credentials never travel
// here from argv: a backend reads them from the environment or a prompt.
type ConnectOptions struct {
	User     string // the user authority is checked against; "" = the process user
	ApplName string // shown as the application tag in handle status
}

// Conn is one connection to a queue manager: the unit of work, the handles and
// the administrative inquiries (PCF on IBM MQ) belong to it.
type Conn interface {
	// QMgr returns the queue manager's facts.
	QMgr(ctx context.Context) (QMgrInfo, error)
	// Queues lists queues whose names match pattern (MQSC generic: "ORDERS.*",
	// "*"), with their attributes, as DISPLAY QUEUE does.
	Queues(ctx context.Context, pattern string) ([]QueueInfo, error)
	// QueueStatus returns status figures of queues matching pattern, as
	// DISPLAY QSTATUS TYPE(QUEUE) does. Only local queues have status.
	QueueStatus(ctx context.Context, pattern string) ([]QueueStatus, error)
	// Handles returns who has the queue open, as DISPLAY QSTATUS TYPE(HANDLE).
	Handles(ctx context.Context, queue string) ([]Handle, error)
	// Open opens a queue (MQOPEN). Alias and remote definitions are resolved as
	// the queue manager resolves them.
	Open(ctx context.Context, od ObjectDesc, opts OpenOptions) (Queue, error)
	// Subscribe creates or resumes a subscription (MQSUB) and returns the managed
	// queue its publications arrive on.
	Subscribe(ctx context.Context, sd SubDesc) (Queue, error)
	// Commit commits the connection's unit of work (MQCMIT).
	Commit(ctx context.Context) error
	// Backout backs the unit of work out (MQBACK): messages got under syncpoint
	// return to their queues with BackoutCount incremented.
	Backout(ctx context.Context) error
	// AsyncStatus returns and resets what became of the puts made with
	// PutOptions.AsyncResponse since the last call (MQSTAT with
	// MQSTAT_TYPE_ASYNC_ERROR): the counts and the first failure. Check it
	// before MQCMIT: an asynchronous put that failed did not happen.
	AsyncStatus(ctx context.Context) (AsyncStatus, error)
	// Close disconnects (MQDISC). An open unit of work is backed out.
	Close() error
}

// AsyncStatus is the MQSTS of MQSTAT_TYPE_ASYNC_ERROR.
type AsyncStatus struct {
	Succeeded, Warnings, Failed int // PutSuccessCount, PutWarningCount, PutFailureCount
	// Reason and Object are the first failure (or, when none failed, the
	// first warning): 0 and "" when every put completed with MQCC_OK.
	Reason mqfmt.Reason
	Object string
}

// Queue is an open object handle (MQI hobj).
type Queue interface {
	// Name is the name the queue was opened with.
	Name() string
	// Browse reads one message without removing it (MQGET with a browse option).
	Browse(ctx context.Context, opts BrowseOptions) (Message, error)
	// Get removes one message (destructive MQGET).
	Get(ctx context.Context, opts GetOptions) (Message, error)
	// Put puts one message (MQPUT). md carries the message descriptor; with
	// PutOptions.NewMsgId the queue manager generates the MsgId and writes it
	// back into md, as MQPUT updates the caller's MQMD.
	Put(ctx context.Context, md *mqfmt.MQMD, data []byte, opts PutOptions) error
	// Inquire returns the attributes of the queue (MQINQ). For an alias it
	// answers for the alias object itself; callers resolve to the base queue.
	Inquire(ctx context.Context) (QueueInfo, error)
	// Close closes the handle (MQCLOSE). For a temporary dynamic queue this
	// deletes it.
	Close(ctx context.Context) error
}

// ObjectDesc names what to open (MQOD).
type ObjectDesc struct {
	Name  string // queue name, or the topic object name when Topic is set
	QMgr  string // ObjectQMgrName: "" = local; another name routes via a transmission queue
	Topic string // topic string for a publish open; Name may name a TOPIC object
	// DynamicName is the name pattern for a queue created from a model queue
	// ("AMQ.*" or "APP.*"); only used when Name is a model queue.
	DynamicName string
	// AlternateUserId is the user whose authority the open is checked
	// against with OpenOptions.AlternateUserAuthority (runmqdlq's
	// PUTAUT(CTX) uses the message's UserIdentifier).
	AlternateUserId string
}

// OpenOptions are the MQOO_* options the tool uses.
type OpenOptions struct {
	Input          bool // MQOO_INPUT_AS_Q_DEF
	Browse         bool // MQOO_BROWSE
	Output         bool // MQOO_OUTPUT
	Inquire        bool // MQOO_INQUIRE
	SaveAllContext bool // MQOO_SAVE_ALL_CONTEXT: later puts may pass this context
	PassAllContext bool // MQOO_PASS_ALL_CONTEXT: needs passall authority
	SetAllContext  bool // MQOO_SET_ALL_CONTEXT: needs setall authority
	// AlternateUserAuthority checks the open against ObjectDesc's
	// AlternateUserId (MQOO_ALTERNATE_USER_AUTHORITY): the connecting user
	// needs altusr authority; context checks stay with the connecting user.
	AlternateUserAuthority bool
}

// SubDesc describes a subscription (MQSD).
type SubDesc struct {
	TopicObject string // a TOPIC object name, or "" with TopicString
	TopicString string
	Durable     bool
	Name        string // SubName; required for durable subscriptions
	Resume      bool   // MQSO_RESUME an existing durable subscription
}

// BrowseOptions select how Browse moves its cursor.
type BrowseOptions struct {
	First bool // MQGMO_BROWSE_FIRST; otherwise MQGMO_BROWSE_NEXT
	// Unmarked restricts the browse to messages this handle has not marked yet,
	// and marks what it returns (MQGMO_UNMARKED_BROWSE_MSG|MQGMO_MARK_BROWSE_HANDLE).
	Unmarked bool
	// MsgId and CorrelId, when set, restrict the browse to matching messages
	// (MQMO_MATCH_MSG_ID/CORREL_ID): with First the first match in queue
	// order, otherwise the next match after the cursor. This is how a single
	// message is found again without reading the queue.
	MsgId    *[24]byte
	CorrelId *[24]byte
	// Segment, when set, restricts the browse further (see SegmentMatch).
	Segment *SegmentMatch
	// MaxBytes bounds the data returned (MQGMO_ACCEPT_TRUNCATED_MSG); 0 = all.
	// A truncated message is not an error (MQRC_TRUNCATED_MSG_ACCEPTED is a
	// warning): Message.Truncated says so.
	MaxBytes int
	Wait     time.Duration // MQGMO_WAIT interval; 0 = MQGMO_NO_WAIT
}

// SegmentMatch selects by the MQMD version 2 fields that tell apart the
// messages of a group and the segments of a message, which may all share a
// MsgId and CorrelId: MQMO_MATCH_GROUP_ID (only when GroupId is not
// MQGI_NONE, which every message outside a group or segmentation has),
// MQMO_MATCH_MSG_SEQ_NUMBER and MQMO_MATCH_OFFSET. A message outside any
// group has MsgSeqNumber 1 and Offset 0.
type SegmentMatch struct {
	GroupId      [24]byte
	MsgSeqNumber int32
	Offset       int32
}

// Matches reports whether md passes the selection.
func (s *SegmentMatch) Matches(md *mqfmt.MQMD) bool {
	return s == nil || ((s.GroupId == [24]byte{} || md.GroupId == s.GroupId) &&
		md.MsgSeqNumber == s.MsgSeqNumber && md.Offset == s.Offset)
}

// GetOptions select which message a destructive Get removes.
type GetOptions struct {
	Syncpoint   bool // MQGMO_SYNCPOINT; otherwise MQGMO_NO_SYNCPOINT
	UnderCursor bool // MQGMO_MSG_UNDER_CURSOR: the message last browsed on this handle
	// MsgId and CorrelId, when set, must match (MQMO_MATCH_MSG_ID/CORREL_ID).
	MsgId    *[24]byte
	CorrelId *[24]byte
	// Segment, when set, must match too (see SegmentMatch).
	Segment  *SegmentMatch
	MaxBytes int // 0 = all; a larger message fails with 2080 unless AcceptTruncated
	// AcceptTruncated removes the message even when its data exceeds MaxBytes
	// (MQGMO_ACCEPT_TRUNCATED_MSG); the rest of its data is lost.
	AcceptTruncated bool
	Wait            time.Duration
}

// ContextMode is the MQPMO context option.
type ContextMode int

// Context modes, as MQPMO_DEFAULT_CONTEXT, MQPMO_PASS_ALL_CONTEXT and
// MQPMO_SET_ALL_CONTEXT.
const (
	ContextDefault ContextMode = iota
	ContextPassAll
	ContextSetAll
)

// PutOptions are the MQPMO_* options the tool uses.
type PutOptions struct {
	Syncpoint bool
	NewMsgId  bool // MQPMO_NEW_MSG_ID
	// AsyncResponse puts without waiting for the queue manager's reply
	// (MQPMO_ASYNC_RESPONSE): a client saves the round trip, and a failure
	// is reported by Conn.AsyncStatus instead of the call.
	AsyncResponse bool
	Context       ContextMode
	// ContextFrom is the handle (opened with SaveAllContext) whose last got
	// message's context ContextPassAll passes.
	ContextFrom Queue
}

// Message is a browsed or got message. Data may be a bounded prefix: Length is
// the full length of the message data.
type Message struct {
	MD     mqfmt.MQMD
	Data   []byte
	Length int
}

// Truncated reports whether Data is shorter than the message.
func (m *Message) Truncated() bool { return len(m.Data) < m.Length }

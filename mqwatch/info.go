package mqwatch

import "time"

// QMgrInfo holds the queue manager facts the tool shows and routes by.
type QMgrInfo struct {
	Name         string
	DeadQ        string // "" when no dead-letter queue is defined
	MaxMsgLen    int32
	CommandLevel int32
	Platform     string
}

// QueueType is a queue definition type (MQQT_*).
type QueueType int

// Queue types, as DISPLAY QUEUE shows them.
const (
	QLocal QueueType = iota + 1
	QModel
	QAlias
	QRemote
	QCluster
)

func (t QueueType) String() string {
	switch t {
	case QLocal:
		return "QLOCAL"
	case QModel:
		return "QMODEL"
	case QAlias:
		return "QALIAS"
	case QRemote:
		return "QREMOTE"
	case QCluster:
		return "QCLUSTER"
	}
	return "QUNKNOWN"
}

// Usage is a local queue's USAGE.
type Usage int

// USAGE(NORMAL) and USAGE(XMITQ).
const (
	UsageNormal Usage = iota
	UsageXmitQ
)

// Monitoring is MONQ: whether the queue keeps the figures that queue status
// reports (oldest message age, last put and get times).
type Monitoring int

// MONQ values. MonQMgr defers to the queue manager's MONQ.
const (
	MonQMgr Monitoring = iota
	MonOff
	MonLow
	MonMedium
	MonHigh
)

// DefType is DEFTYPE of a local queue: how it came to exist.
type DefType int

// Definition types.
const (
	Predefined DefType = iota
	PermanentDynamic
	TemporaryDynamic
)

// QueueInfo is a queue's attributes.
type QueueInfo struct {
	Name        string
	Type        QueueType
	Description string
	// Alias: the object it resolves to.
	Target string
	// Remote: RNAME, RQMNAME, XMITQ.
	RemoteName, RemoteQMgr, XmitQ string
	MaxDepth                      int32
	MaxMsgLen                     int32
	BackoutThresh                 int32  // BOTHRESH; 0 = poison handling disabled
	BackoutQName                  string // BOQNAME
	HardenBackout                 bool   // HARDENBO
	InhibitPut                    bool
	InhibitGet                    bool
	DefPersistent                 bool // DEFPSIST(YES)
	DefPriority                   int32
	Usage                         Usage
	Monitoring                    Monitoring
	DefType                       DefType
	Shareable                     bool
	// Triggering (local and model queues): TRIGGER/NOTRIGGER, INITQ,
	// PROCESS and TRIGTYPE (NONE, FIRST, EVERY, DEPTH). A queue defined
	// LIKE another copies them: a parking queue LIKE a DEADQ that starts
	// runmqdlq would start it too (R10h).
	Trigger     bool
	InitQ       string
	Process     string
	TriggerType string
}

// QueueStatus is a local queue's status. Figures that need queue monitoring are
// unknown when MONQ is off, as on IBM MQ: Monitored says which.
type QueueStatus struct {
	Name        string
	Depth       int32 // CURDEPTH: includes uncommitted puts, excludes uncommitted gets
	OpenInput   int32 // IPPROCS
	OpenOutput  int32 // OPPROCS
	Uncommitted int32 // UNCOM: messages put or got under an open unit of work
	Monitored   bool
	OldestAge   time.Duration // MSGAGE, when Monitored and Depth > 0
	LastPut     time.Time     // LPUTDATE/LPUTTIME; zero when none or unknown
	LastGet     time.Time     // LGETDATE/LGETTIME
}

// Handle is one open handle on a queue (DISPLAY QSTATUS TYPE(HANDLE)).
type Handle struct {
	Queue    string
	ApplTag  string
	ApplType int32
	User     string
	Channel  string
	ConnName string
	PID      int
	Input    bool
	Output   bool
	Browse   bool
	Inquire  bool
	UOW      bool // a unit of work is active on the connection
	// ConnID is the connection's identifier (DISPLAY CONN) in hexadecimal;
	// "" when it is not known (handle status does not carry it: the IBM MQ
	// backend finds it with INQUIRE_CONNECTION, when that finds exactly one
	// connection with the handle's application, process, thread and unit of work).
	ConnID string
	// UOWStart is when the connection's unit of work started (UOWSTDA and
	// UOWSTTI of DISPLAY CONN); zero when none is active or it is not known.
	UOWStart time.Time
}

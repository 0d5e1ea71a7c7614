package ops

import (
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Op is an operator action (docs/poison-rules.md R10).
type Op string

// Operator actions.
const (
	OpRequeue Op = "requeue" // DEADQ → MQDLH DestQName (R10b); BOQ → its input queue (R10c)
	OpMove    Op = "move"    // to any queue, atomically (R10a)
	OpReplay  Op = "replay"  // put a copy, original stays (R10e)
	OpDiscard Op = "discard" // destructive get, archived first (R10d)
	OpExport  Op = "export"  // browse to a dmpmqmsg file
	OpImport  Op = "import"  // put a dmpmqmsg file's messages
	OpEdit    Op = "edit"    // put an edited copy, original archived and removed in one unit of work (R10i): Engine.Edit
)

// OpFix is applying a finding's fix; OpInhibit is GET/PUT inhibit on a
// queue in a poison loop. Both are audited as the other operations are.
const (
	OpFix     Op = "fix"
	OpInhibit Op = "inhibit"
)

// OpContext says which MQMD context a moved message carries.
type OpContext int

// Context modes: pass the original context (default; needs setall),
// or let the queue manager set default context (explicit --context default).
const (
	ContextPass OpContext = iota
	ContextDefault
)

// PutAuthority is whose authority a requeue or replay puts with.
type PutAuthority int

// Put authorities, after runmqdlq's PUTAUT.
const (
	// PutAuthDefault: the operator's; messages dead-lettered because their
	// user was not authorized (2035) are skipped, since putting them with
	// the operator's authority would deliver what security refused.
	PutAuthDefault PutAuthority = iota
	// PutAuthOperator: the operator's, for every message, 2035 dead
	// letters included: asked for explicitly (PUTAUT(DEF)).
	PutAuthOperator
	// PutAuthContext: each message's UserIdentifier, as alternate user
	// (PUTAUT(CTX)): the queue manager checks the original sender's
	// authority; the operator needs altusr.
	PutAuthContext
)

// OpRequest is one operator action. Messages are exactly the summaries the
// operator saw: the engine acts on those messages and no others, verifying
// MsgId, CorrelId and put time before committing.
type OpRequest struct {
	Op       Op
	QMgr     string
	Queue    string            // source queue (target for import)
	Messages []mqwatch.Summary // the selection; empty with All or a Filter
	// Browsed says the caller read Messages from the queue for this very
	// request (a rules table's preview or run), so the plan does not browse
	// each one again to see it is still there; the gets still verify every
	// message. Lists a person chose from a screen are looked for again.
	Browsed    bool
	All        bool
	Filter     *Filter
	Target     string // move/replay target; override for requeue
	TargetQMgr string
	DryRun     bool
	Batch      int     // messages per unit of work (default 100)
	Rate       float64 // messages per second; 0 = unlimited
	Context    OpContext
	KeepMsgId  bool // replay: keep the MsgId (default: a new one)
	// NoReports clears MQRO_COA, COD, EXCEPTION and EXPIRATION (with their
	// data variants) on a replay's copies, so they set off no reports.
	NoReports bool
	File      string // export/import file; discard archive override
	User      string // operating-system user, for the audit log
	// Workers is how many connections move batches in parallel (requeue,
	// move, discard); 0 = DefaultWorkers. With more than one, messages keep
	// their order within a batch but batches commit in any order: 1 keeps the
	// source order on the target.
	Workers int
	// Limit caps how many messages All or a Filter selects (0 = MaxSelection);
	// the plan says when more matched.
	Limit int
	// PutAuthority says whose authority requeue, replay and move put with.
	PutAuthority PutAuthority
	// AllowSystemTarget names the one SYSTEM.* queue the operator allows as
	// a target (R10g); every other SYSTEM.* target is skipped, except the
	// DEADQ and transmission queues.
	AllowSystemTarget string
	// Verify is how long after a requeue, move or replay the engine watches
	// for the moved messages coming back (R10f "requeue loop"); 0 skips it.
	Verify time.Duration
	// NoPlanItems leaves the plan's items out of the result (Plan.Items
	// nil): the run acts on the plan's own list instead of a copy of it.
	// For callers that keep counts only (model.RunMarks), where the copy
	// was half a kilobyte of garbage per message moved.
	NoPlanItems bool
	// Part says the request is one chunk of a larger run (model.RunMarks):
	// the engine writes nothing of it to the journal, as the whole run is
	// written once when it ends.
	Part bool
}

// Filter selects messages by what an operator sees in a summary.
type Filter struct {
	Reason       int32
	DestQ        string
	MinAge       time.Duration
	MinBackout   int32
	PutAppl      string
	BodyContains string
	Format       string
	// MsgIds, when set, selects only messages with one of these MsgIds (a
	// command line's --msgid; every message with the id is selected).
	MsgIds [][24]byte
}

// OpPlan is what an action would do: one entry per message and the counts per
// target, for the confirmation dialog and --dry-run.
type OpPlan struct {
	Request OpRequest
	Items   []OpItem
	Targets map[string]int // "QUEUE" or "QUEUE@QMGR" → messages
	Summary string         // one sentence: "Requeue 37 messages from QM1.DEADQ to ..."
	// Warnings are what the plan foresees going wrong: a target that does not
	// exist, is put-inhibited or has less room than the messages need.
	Warnings []string
	// More is set when the selection stopped at the limit and more messages
	// matched.
	More bool
	// MoreCount is how many more matched, when the selection could count
	// them (an import file); 0 when unknown.
	MoreCount int
}

// OpItem is one message's planned or actual fate.
type OpItem struct {
	Msg        mqwatch.Summary
	Target     string
	TargetQMgr string
	// Kind is what became (or would become) of it; Detail says why, for
	// the kinds that have a why; Text renders the sentence.
	Kind   ItemKind
	Detail string
	Skip   SkipCause // for Skipped: why, as data
	// Opened is set on a WouldFail the queue manager refused the plan's
	// MQOPEN for (its own reason, shown with its number), rather than a
	// failure predicted from the queue's attributes.
	Opened bool
	Reason int32 // MQRC when it failed or was skipped
	// Why names the rule that chose the target: "R10b MQDLH DestQName",
	// "R10c BOQNAME of ORDERS.IN", "target override".
	Why string
	// Index is the message's 1-based position in the file for import.
	Index int
	// CameBack is set when the check after the run saw the message back
	// on the queue it was taken from, or on the DEADQ (R10f).
	CameBack bool
	// CopyMsgId is the MsgId a replay's copy was put with (the queue
	// manager's new one unless --keep-msgid), which the check looks for.
	CopyMsgId [24]byte
	// Blocker is, for a WouldComeBack, the queue whose state would bring
	// it back (the consumer's BOQ, full or put-inhibited): the requeue-loop
	// alert sees when that cause is gone.
	Blocker string
}

// OpProgress is reported during a run, for progress bars.
type OpProgress struct {
	Done, Total, Skipped, Failed int
	Rate                         float64 // messages per second so far
	ETA                          time.Duration
}

// OpResult summarises a finished (or stopped) run.
type OpResult struct {
	Plan        OpPlan
	Done        int
	Skipped     int
	Failed      int
	Stopped     string // why the run stopped early ("" = finished)
	AuditFile   string
	ArchiveFile string
	Items       []OpItem
	// InDoubt counts messages of a batch whose commit outcome is unknown (the
	// connection broke during MQCMIT and it could not be checked): the unit
	// of work is atomic, so they all moved or none did.
	InDoubt int
	// NotDone counts messages not acted on because the run stopped.
	NotDone int
	Elapsed time.Duration
	// Verify is what the check after the run found (R10f); nil when none
	// ran (a dry run, a discard, --verify 0).
	Verify *OpVerify
	// Entry is the run's entry in the engine's journal (0: none written).
	Entry uint64
}

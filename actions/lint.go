package actions

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// Severity ranks a lint finding.
type Severity int

// Severities, least urgent first.
const (
	Info Severity = iota
	Warning
	Critical
)

// String returns "info", "warning" or "critical".
func (s Severity) String() string {
	switch s {
	case Warning:
		return "warning"
	case Critical:
		return "critical"
	}
	return "info"
}

// Label is the four-letter form screens show in narrow columns: "info",
// "warn" or "crit".
func (s Severity) Label() string {
	switch s {
	case Warning:
		return "warn"
	case Critical:
		return "crit"
	}
	return "info"
}

// Finding is one lint result: what is wrong, where, why it matters, and the
// MQSC that fixes it when a command can.
type Finding struct {
	Severity Severity
	Rule     string // "R8a", "R2c", ...
	Queue    string
	Why      string   // one line
	Fix      []string // MQSC commands, in order; empty when no command fixes it
	// Prereq is how many of Fix's first commands fix another finding that
	// this fix would otherwise make worse (a BOQNAME naming a full BOQ, a
	// DEADQ that cannot take the messages): they run first, in order.
	Prereq int
	// After names the findings those first commands fix ("R8b ORDERS.BO:
	// full, 40 of MAXDEPTH 40"), one a prerequisite.
	After []string
	// Notes say what the change needs before it takes effect (R1b: a JMS
	// consumer keeps BOTHRESH and BOQNAME until it reconnects).
	Notes []string
	// Queues lists the queues of a finding grouped per queue manager
	// (Queue is then empty).
	Queues []string
}

// String renders the finding on one line, for logs and tests.
func (f Finding) String() string {
	return fmt.Sprintf("%s %s %s: %s", f.Severity, f.Rule, f.Queue, f.Why)
}

// ConsumerView is what is known of one connected consumer: its style and,
// for JMS styles, the attributes it cached (R1b).
type ConsumerView struct {
	ID     string // connection or application tag, for the finding
	Queue  string // the base input queue
	Style  Style
	Cached *CachedAttrs
	Policy DeliveryCountPolicy
	Paused bool // an MDB paused by maxDeliveryFailures (R9c)
}

// LintInput is the queue manager's configuration plus optional live facts.
type LintInput struct {
	QMgr   mqwatch.QMgrInfo
	Queues []mqwatch.QueueInfo
	Status []mqwatch.QueueStatus
	// MaxBackoutSeen is the highest BackoutCount seen on each queue's
	// messages (by browsing), when known.
	MaxBackoutSeen map[string]int32
	Consumers      []ConsumerView
	// NearFull is the fraction of MAXDEPTH at which a BOQ or the DEADQ is
	// reported; 0 means 0.8.
	NearFull float64
	// LoopAlarm is the BackoutCount from which a BOTHRESH 0 queue is a
	// critical poison loop rather than a warning; 0 means 10.
	LoopAlarm int32
}

// Suggested values for the MQSC a finding proposes.
const (
	suggestedBOTHRESH = 3
	boqSuffix         = ".BO"
	maxMAXMSGL        = 104857600 // the MAXMSGL ceiling, 100 MB
	defaultDeadQ      = "SYSTEM.DEAD.LETTER.QUEUE"
)

// Lint checks the configuration against R1b, R1c, R1f, R2c, R8 and R9. It is a
// pure function; findings come most severe first, then by rule and queue.
func Lint(in LintInput) []Finding {
	l := newLinter(in)
	l.deadQ()
	l.inputQueues()
	l.backoutQueues()
	l.consumers()
	l.groupNoise()
	l.orderFixes()
	slices.SortStableFunc(l.out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(b.Severity, a.Severity), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Queue, b.Queue))
	})
	return l.out
}

// linter holds the indexed input and the findings.
type linter struct {
	in     LintInput
	inv    *QueueIndex
	status map[string]mqwatch.QueueStatus
	// boqUsers maps each BOQNAME to the queues naming it.
	boqUsers map[string][]mqwatch.QueueInfo
	out      []Finding
	// noise holds the MAXMSGL findings that only a maximum-size message
	// plus its header would hit: every default definition has them.
	noise []Finding
}

func newLinter(in LintInput) *linter {
	if in.NearFull <= 0 || in.NearFull > 1 {
		in.NearFull = 0.8
	}
	if in.LoopAlarm <= 0 {
		in.LoopAlarm = 10
	}
	l := &linter{in: in, inv: NewQueueIndex(in.QMgr, in.Queues, in.Status),
		status: map[string]mqwatch.QueueStatus{}, boqUsers: map[string][]mqwatch.QueueInfo{}}
	for _, s := range in.Status {
		l.status[s.Name] = s
	}
	for _, q := range in.Queues {
		if bq := strings.TrimSpace(q.BackoutQName); bq != "" && isApplicationQueue(q) {
			l.boqUsers[bq] = append(l.boqUsers[bq], q)
		}
	}
	return l
}

func (l *linter) add(sev Severity, rule, queue, why string, fix ...string) {
	l.out = append(l.out, Finding{Severity: sev, Rule: rule, Queue: queue, Why: why, Fix: fix})
}

// isApplicationQueue selects the local and model queues applications consume
// from: not SYSTEM.* objects and not transmission queues.
func isApplicationQueue(q mqwatch.QueueInfo) bool {
	if strings.HasPrefix(q.Name, "SYSTEM.") {
		return false
	}
	return (q.Type == mqwatch.QLocal && q.Usage == mqwatch.UsageNormal) || q.Type == mqwatch.QModel
}

// capacity classifies a queue's depth: 2 full, 1 near full, 0 fine.
func (l *linter) capacity(q mqwatch.QueueInfo) (int, int32) {
	s, ok := l.status[q.Name]
	depth := s.Depth
	switch {
	case !ok:
		return 0, depth
	case depth >= q.MaxDepth:
		return 2, depth
	case float64(depth) >= l.in.NearFull*float64(q.MaxDepth):
		return 1, depth
	}
	return 0, depth
}

// defineBOQ proposes a backout queue sized for the input queue: deep as the
// input queue and able to take its largest message plus the RFH2 R5b adds.
func defineBOQ(name string, input mqwatch.QueueInfo) string {
	return fmt.Sprintf("DEFINE QLOCAL(%s) MAXDEPTH(%d) MAXMSGL(%d)", pcf.MQSCName(name), max(input.MaxDepth, 5000), min(int64(input.MaxMsgLen)+rfh2FixedLen, maxMAXMSGL))
}

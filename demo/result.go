package demo

import (
	"cmp"
	"context"
	"fmt"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"slices"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Result is the final state of a simulation.
type Result struct {
	Scenario   string          `json:"scenario"`
	Seed       uint64          `json:"seed"`
	Simulated  string          `json:"simulated"` // a Go duration, e.g. "5m0s"
	Start      time.Time       `json:"start"`
	End        time.Time       `json:"end"`
	QMgrs      []QMgrResult    `json:"qmgrs"`
	Routes     []RouteCount    `json:"routes"`
	Producers  []ProducerStats `json:"producers"`
	Consumers  []ConsumerState `json:"consumers"`
	Events     []EventResult   `json:"events,omitempty"`
	Accounting Accounting      `json:"accounting"`
	// Embedded are the queue managers the simulation ran on, in the state it
	// left them: its consumers and producers are stopped, the messages stay.
	// The action commands act on them (--scenario).
	Embedded []*embedded.QMgr `json:"-"`
}

// QMgrResult is one queue manager's final state.
type QMgrResult struct {
	Name   string        `json:"name"`
	DeadQ  string        `json:"deadq"`
	Queues []QueueResult `json:"queues"`
}

// QueueResult is one queue's attributes and status. System queues are left
// out, except the dead-letter queue and subscriptions' managed queues.
type QueueResult struct {
	Name          string  `json:"name"`
	Type          string  `json:"type"`
	Role          Role    `json:"role"`
	Description   string  `json:"description,omitempty"`
	Target        string  `json:"target,omitempty"` // alias target, or RNAME@RQMNAME via XMITQ
	Depth         int32   `json:"depth"`
	MaxDepth      int32   `json:"maxdepth,omitempty"`
	BackoutThresh int32   `json:"bothresh"`
	BackoutQName  string  `json:"boqname,omitempty"`
	PutInhibited  bool    `json:"put_inhibited,omitempty"`
	GetInhibited  bool    `json:"get_inhibited,omitempty"`
	OpenInput     int32   `json:"ipprocs"`
	OpenOutput    int32   `json:"opprocs"`
	OldestAge     float64 `json:"oldest_age_s,omitempty"`
	LastPut       string  `json:"last_put,omitempty"`
	LastGet       string  `json:"last_get,omitempty"`
	// MaxBackoutCount is the highest BackoutCount of the messages on the queue.
	MaxBackoutCount int32 `json:"max_backout_count,omitempty"`
	// Handles names the applications with the queue open, e.g. "OrderService (input)".
	Handles []string `json:"handles,omitempty"`
	// Reasons groups a dead-letter queue by MQDLH reason and destination.
	Reasons  []ReasonCount `json:"reasons,omitempty"`
	Examples []Example     `json:"examples,omitempty"`
}

// ReasonCount is a group of dead-letter messages.
type ReasonCount struct {
	Reason   int32  `json:"reason"`
	Name     string `json:"name"`
	DestQ    string `json:"dest_q"`
	DestQMgr string `json:"dest_qmgr"`
	PutAppl  string `json:"put_appl"`
	Count    int    `json:"count"`
}

// Example is a decoded message of a BOQ or dead-letter queue.
type Example struct {
	MsgId            string   `json:"msgid"`
	ApplIdentityData string   `json:"appl_identity_data"`
	PutApplName      string   `json:"put_appl_name"`
	PutTime          string   `json:"put_time"`
	MsgType          string   `json:"msg_type"`
	Persistent       bool     `json:"persistent"`
	BackoutCount     int32    `json:"backout_count"`
	Format           string   `json:"format"`
	CCSID            int32    `json:"ccsid"`
	Encoding         int32    `json:"encoding"`
	Headers          []string `json:"headers"`
	Body             string   `json:"body"`
	Error            string   `json:"error,omitempty"`
}

// examplesPerQueue is how many messages of each BOQ and DEADQ are decoded.
const examplesPerQueue = 3

// browseBytes bounds what the final scan reads of each message.
const browseBytes = 64 << 10

// collect reads the final state of every queue manager, and every message
// for accounting.
func (r *runner) collect(ctx context.Context) ([]QMgrResult, []seen, error) {
	var out []QMgrResult
	var all []seen
	for _, qm := range r.qms {
		// A queue manager an event stopped is started again for the final
		// scan, as an administrator would run strmqm to count its messages:
		// they stayed on its queues.
		qm.Start()
		conn, err := qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: "poisonwatch sim"})
		if err != nil {
			return nil, nil, fmt.Errorf("collect %s: %w", qm.Name(), err)
		}
		res, found, err := r.collectQMgr(ctx, conn)
		if cerr := conn.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("collect %s: disconnect: %w", qm.Name(), cerr)
		}
		if err != nil {
			return nil, nil, err
		}
		out = append(out, res)
		all = append(all, found...)
	}
	return out, all, nil
}

func (r *runner) collectQMgr(ctx context.Context, conn mqwatch.Conn) (QMgrResult, []seen, error) {
	info, err := conn.QMgr(ctx)
	if err != nil {
		return QMgrResult{}, nil, fmt.Errorf("collect: %w", err)
	}
	infos, err := conn.Queues(ctx, "*")
	if err != nil {
		return QMgrResult{}, nil, fmt.Errorf("collect %s: %w", info.Name, err)
	}
	stats, err := conn.QueueStatus(ctx, "*")
	if err != nil {
		return QMgrResult{}, nil, fmt.Errorf("collect %s: %w", info.Name, err)
	}
	status := map[string]mqwatch.QueueStatus{}
	for _, s := range stats {
		status[s.Name] = s
	}
	roles := r.roles(info, infos)
	res := QMgrResult{Name: info.Name, DeadQ: info.DeadQ}
	var found []seen
	for _, q := range infos {
		role := roles[q.Name]
		if q.Type == mqwatch.QLocal {
			qs, err := scanQueue(ctx, conn, info.Name, q.Name, role)
			if err != nil {
				return res, nil, err
			}
			found = append(found, qs.found...)
			if shown(q.Name, info.DeadQ) {
				qr := queueResult(q, status[q.Name], role, qs)
				if qr.Handles, err = handles(ctx, conn, q.Name); err != nil {
					return res, nil, err
				}
				res.Queues = append(res.Queues, qr)
			}
			continue
		}
		if shown(q.Name, info.DeadQ) {
			res.Queues = append(res.Queues, queueResult(q, mqwatch.QueueStatus{}, role, scanned{}))
		}
	}
	slices.SortFunc(res.Queues, func(a, b QueueResult) int { return strings.Compare(a.Name, b.Name) })
	return res, found, nil
}

// shown leaves out the queue manager's own objects, but not its DEADQ nor
// the managed queues of subscriptions.
func shown(name, deadQ string) bool {
	return !strings.HasPrefix(name, "SYSTEM.") || name == deadQ || strings.HasPrefix(name, "SYSTEM.MANAGED.")
}

// roles classifies every queue: the DEADQ, queues named as BOQNAME (by local
// queues and by the model queues of managed subscriptions), transmission
// queues, the queues applications use, and the rest.
func (r *runner) roles(info mqwatch.QMgrInfo, infos []mqwatch.QueueInfo) map[string]Role {
	roles := map[string]Role{}
	alias := map[string]string{}
	for _, q := range infos {
		switch {
		case q.Type != mqwatch.QLocal:
			roles[q.Name] = RoleObject
			alias[q.Name] = q.Target
		case q.Usage == mqwatch.UsageXmitQ:
			roles[q.Name] = RoleXmitQ
		case strings.HasPrefix(q.Name, "SYSTEM.MANAGED."):
			roles[q.Name] = RoleInput
		default:
			roles[q.Name] = RoleOther
		}
	}
	app := func(name string) {
		if t, ok := alias[name]; ok {
			name = t
		}
		if roles[name] == RoleOther {
			roles[name] = RoleInput
		}
	}
	for _, c := range r.s.Consumers {
		if c.QMgr == info.Name && c.Queue != "" {
			app(c.Queue)
		}
	}
	for _, p := range r.s.Producers {
		if p.QMgr == info.Name && p.Queue != "" && p.ToQMgr == "" && p.DeadLetter == nil {
			app(p.Queue)
		}
		if p.QMgr == info.Name {
			for _, q := range p.Queues {
				app(q)
			}
		}
	}
	for _, q := range infos {
		if b := strings.TrimSpace(q.BackoutQName); b != "" && roles[b] != RoleObject && roles[b] != "" {
			roles[b] = RoleBOQ
		}
	}
	if info.DeadQ != "" {
		roles[info.DeadQ] = RoleDeadQ
	}
	return roles
}

func queueResult(q mqwatch.QueueInfo, st mqwatch.QueueStatus, role Role, s scanned) QueueResult {
	qr := QueueResult{Name: q.Name, Type: q.Type.String(), Role: role, Description: q.Description,
		Depth: st.Depth, BackoutThresh: q.BackoutThresh, BackoutQName: strings.TrimSpace(q.BackoutQName),
		PutInhibited: q.InhibitPut, GetInhibited: q.InhibitGet, OpenInput: st.OpenInput, OpenOutput: st.OpenOutput,
		MaxBackoutCount: s.maxBackout, Reasons: s.reasons, Examples: s.examples}
	switch q.Type {
	case mqwatch.QLocal, mqwatch.QModel:
		qr.MaxDepth = q.MaxDepth
	case mqwatch.QAlias:
		qr.Target = q.Target
	case mqwatch.QRemote:
		qr.Target = fmt.Sprintf("%s@%s via %s", q.RemoteName, q.RemoteQMgr, q.XmitQ)
		if q.RemoteName == "" {
			qr.Target = fmt.Sprintf("queue manager alias for %s via %s", q.RemoteQMgr, q.XmitQ)
		}
	}
	if st.Monitored {
		qr.OldestAge = st.OldestAge.Round(time.Millisecond).Seconds()
		qr.LastPut, qr.LastGet = stamp(st.LastPut), stamp(st.LastGet)
	}
	return qr
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func handles(ctx context.Context, conn mqwatch.Conn, queue string) ([]string, error) {
	hs, err := conn.Handles(ctx, queue)
	if err != nil {
		return nil, fmt.Errorf("handles of %s: %w", queue, err)
	}
	count := map[string]int{}
	for _, h := range hs {
		var modes []string
		for _, m := range []struct {
			on   bool
			name string
		}{{h.Input, "input"}, {h.Output, "output"}, {h.Browse, "browse"}, {h.Inquire, "inquire"}} {
			if m.on {
				modes = append(modes, m.name)
			}
		}
		count[fmt.Sprintf("%s (%s)", mqfmt.Sanitize(strings.TrimSpace(h.ApplTag)), strings.Join(modes, ","))]++
	}
	out := make([]string, 0, len(count))
	for k, n := range count {
		if n > 1 {
			k = fmt.Sprintf("%s ×%d", k, n)
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out, nil
}

func sortReasons(rs []ReasonCount) {
	slices.SortFunc(rs, func(a, b ReasonCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason), strings.Compare(a.DestQ, b.DestQ))
	})
}

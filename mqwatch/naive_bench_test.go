package mqwatch_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// naivePoller is the strategy the watcher's incremental browsing is measured
// against: every poll it re-reads every message of every BOQ and of the
// DEADQ. Everything else (the three inquiries, the head browses of input
// queues, the body bound, summarising) is done as the watcher does it, so the
// two differ only in how inventories are kept.
type naivePoller struct {
	conn      mqwatch.Conn
	bodyBytes int
	headDepth int
}

// naivePoll is what one naive poll saw, for comparison with a snapshot.
type naivePoll struct {
	Inventories map[string]*mqwatch.Inventory
	Heads       map[string][]mqwatch.Summary
}

func newNaivePoller(conn mqwatch.Conn) *naivePoller {
	// The watcher's defaults: 4096 body bytes, 50 head messages.
	return &naivePoller{conn: conn, bodyBytes: 4096, headDepth: 50}
}

func (p *naivePoller) poll(ctx context.Context) (*naivePoll, error) {
	qm, err := p.conn.QMgr(ctx)
	if err != nil {
		return nil, fmt.Errorf("naive poll: %w", err)
	}
	infos, err := p.conn.Queues(ctx, "*")
	if err != nil {
		return nil, fmt.Errorf("naive poll: %w", err)
	}
	stats, err := p.conn.QueueStatus(ctx, "*")
	if err != nil {
		return nil, fmt.Errorf("naive poll: %w", err)
	}
	depth := make(map[string]int32, len(stats))
	for _, s := range stats {
		depth[s.Name] = s.Depth
	}
	boqs := map[string]bool{}
	for _, q := range infos {
		if q.BackoutQName != "" {
			boqs[q.BackoutQName] = true
		}
	}
	out := &naivePoll{Inventories: map[string]*mqwatch.Inventory{}, Heads: map[string][]mqwatch.Summary{}}
	for _, q := range infos {
		name := q.Name
		_, local := depth[name]
		switch {
		case !local || (strings.HasPrefix(name, "SYSTEM.") && name != qm.DeadQ):
		case name == qm.DeadQ || boqs[name]:
			all, err := p.browse(ctx, name, -1)
			if err != nil {
				return nil, err
			}
			out.Inventories[name] = (*mqwatch.Inventory)(nil).Append(all...)
		case depth[name] > 0 && q.Usage != mqwatch.UsageXmitQ:
			if out.Heads[name], err = p.browse(ctx, name, p.headDepth); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// browse reads a queue from the head: all of it when limit < 0, otherwise its
// head as the watcher reads it (the first message, and up to limit when that
// one has been backed out before).
func (p *naivePoller) browse(ctx context.Context, name string, limit int) ([]mqwatch.Summary, error) {
	q, err := p.conn.Open(ctx, mqwatch.ObjectDesc{Name: name}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return nil, fmt.Errorf("naive poll: %w", err)
	}
	defer q.Close(ctx)
	var out []mqwatch.Summary
	opts := mqwatch.BrowseOptions{First: true, MaxBytes: p.bodyBytes}
	for limit < 0 || len(out) < limit {
		m, err := q.Browse(ctx, opts)
		if mqwatch.IsReason(err, 2033) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("naive poll: %w", err)
		}
		out = append(out, mqwatch.Summarize(&m))
		if limit >= 0 && len(out) == 1 && m.MD.BackoutCount == 0 {
			break
		}
		opts.First = false
	}
	return out, nil
}

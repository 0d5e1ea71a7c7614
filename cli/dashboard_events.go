package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// eventQueues are the instrumentation event queues whose events explain
// poison: an authority event (2035) or a queue-full event (2053) on the
// queue dead letters were meant for.
var eventQueues = []string{"SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.PERFM.EVENT", "SYSTEM.ADMIN.CHANNEL.EVENT"}

// includedEventQueues are the event queues the operator's --include names
// (SYSTEM.* queues are watched only when named) and --exclude does not.
func includedEventQueues(include, exclude []string) []string {
	var out []string
	for _, q := range eventQueues {
		named := slices.ContainsFunc(include, func(p string) bool { return mqwatch.MatchName(p, q) })
		left := slices.ContainsFunc(exclude, func(p string) bool { return mqwatch.MatchName(p, q) })
		if named && !left {
			out = append(out, q)
		}
	}
	return out
}

// eventKey is what ties events to dead letters: the queue manager, the
// reason (the event is the reason code) and the queue.
type eventKey struct {
	qmgr   string
	reason mqfmt.Reason
	queue  string
}

type eventCount struct {
	name  string
	n     int
	last  time.Time
	users []string
}

// eventTally counts the events read, by key.
type eventTally struct {
	mu sync.Mutex
	by map[eventKey]*eventCount
	// read, when set, is called after each pass over a queue manager's
	// event queues: what was on them is counted (a test's signal).
	read func(qmgr string)
}

func newEventTally() *eventTally { return &eventTally{by: map[eventKey]*eventCount{}} }

func (t *eventTally) add(qmgr string, e *pcf.Event, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := eventKey{qmgr, e.Reason, e.Queue}
	c := t.by[k]
	if c == nil {
		c = &eventCount{name: e.Name}
		t.by[k] = c
	}
	c.n++
	if at.After(c.last) {
		c.last = at
	}
	if e.User != "" && !slices.Contains(c.users, e.User) && len(c.users) < 5 {
		c.users = append(c.users, e.User)
	}
}

// line says which events explain dead letters with reason on queue: ""
// when none were read.
func (t *eventTally) line(qmgr string, reason int32, queue string) string {
	if queue == "" || reason == 0 {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.by[eventKey{qmgr, mqfmt.Reason(reason), queue}]
	if c == nil {
		return ""
	}
	s := fmt.Sprintf("%d× %s event on %s", c.n, c.name, queue)
	if !c.last.IsZero() {
		s += ", last " + c.last.UTC().Format("2006-01-02 15:04:05") + " GMT"
	}
	if len(c.users) > 0 {
		s += " (user " + strings.Join(c.users, ", ") + ")"
	}
	return mqfmt.Sanitize(s)
}

// readEvents browses the event queues of one queue manager every interval
// on a connection of its own, with browse marks so that each message is
// read once, and counts what it finds. The events stay on their queues for
// whoever else reads them.
func (t *eventTally) readEvents(ctx context.Context, qmgr string, c mqwatch.Connector, queues []string, interval time.Duration) {
	for ctx.Err() == nil {
		if conn, err := c.Connect(ctx, mqwatch.ConnectOptions{ApplName: "poisonwatch events"}); err == nil {
			t.readOn(ctx, qmgr, conn, queues, interval)
			_ = conn.Close()
		}
		select {
		case <-ctx.Done():
		case <-time.After(interval):
		}
	}
}

// readOn reads new events until the connection fails or ctx ends.
func (t *eventTally) readOn(ctx context.Context, qmgr string, conn mqwatch.Conn, queues []string, interval time.Duration) {
	open := map[string]mqwatch.Queue{}
	defer func() {
		for _, q := range open {
			_ = q.Close(context.Background())
		}
	}()
	for ctx.Err() == nil {
		for _, name := range queues {
			q := open[name]
			if q == nil {
				var err error
				if q, err = conn.Open(ctx, mqwatch.ObjectDesc{Name: name}, mqwatch.OpenOptions{Browse: true}); err != nil {
					if mqwatch.ConnectionLost(mqwatch.ReasonOf(err)) {
						return
					}
					continue // not there or not authorised: `doctor` says which
				}
				open[name] = q
			}
			if err := t.drain(ctx, qmgr, q); err != nil && mqwatch.ConnectionLost(mqwatch.ReasonOf(err)) {
				return
			}
		}
		if t.read != nil {
			t.read(qmgr)
		}
		select {
		case <-ctx.Done():
		case <-time.After(interval):
		}
	}
}

// maxEventBytes bounds one event read: events are a few hundred bytes.
const maxEventBytes = 16 << 10

// drain reads the messages of q not read before.
func (t *eventTally) drain(ctx context.Context, qmgr string, q mqwatch.Queue) error {
	for ctx.Err() == nil {
		m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: true, Unmarked: true, MaxBytes: maxEventBytes})
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return nil
		}
		if err != nil {
			return err
		}
		if mqfmt.Trim(m.MD.Format) != mqfmt.Trim(mqfmt.FmtEvent) {
			continue
		}
		e, err := pcf.DecodeEvent(m.Data, m.MD.Encoding, m.MD.CodedCharSetId)
		if err != nil {
			continue
		}
		at, _ := mqfmt.ParsePutTime(m.MD.PutDate, m.MD.PutTime)
		t.add(qmgr, &e, at)
	}
	return ctx.Err()
}

// startEvents reads the included event queues of every queue manager, and
// returns what explains a dead-letter group (nil when none is included).
func startEvents(ctx context.Context, o tuiOpts, be *backend) func(qmgr string, reason int32, queue string) string {
	queues := includedEventQueues(splitList(o.include), splitList(o.exclude))
	if len(queues) == 0 {
		return nil
	}
	t := newEventTally()
	for _, q := range be.qmgrs {
		go t.readEvents(ctx, q.name, q.conn, queues, o.interval)
	}
	return t.line
}

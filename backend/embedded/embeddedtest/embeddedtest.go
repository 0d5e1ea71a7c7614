// Package embeddedtest gives tests an embedded queue manager, as
// net/http/httptest gives them a server: New builds one with a name, a
// clock, a process user and a seed, runs its MQSC (a command that fails
// fails the test, naming its line), starts its command server when asked,
// and stops and closes everything it started when the test ends. Conn
// connects (closed at the end); Put puts a message with the context it
// carries (set all), Browse reads a queue's messages without taking them,
// on any connection or on the queue manager's own.
//
// Of this module it imports only embedded, mqwatch and mqfmt, so the
// tests of any package may use it but the in-package tests of those.
package embeddedtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Options configure a test's queue manager. The zero value is "QM1" on the
// wall clock, as embedded.New makes it.
type Options struct {
	Name string // "QM1" when empty
	// Now is the queue manager's clock (time.Now when nil): At(t) for a
	// fixed one, the Now of the test's own clock for one it moves.
	Now         func() time.Time
	ProcessUser string              // the user of connections that name none
	ProgramName string              // their application name
	Groups      map[string][]string // each user's groups, for authority records
	Seed        uint64              // seeds probabilistic faults
	// MQSC is run first; a command that fails fails the test.
	MQSC string
	// CommandServer starts the command server, stopped at the test's end.
	CommandServer bool
}

// QM is a test's embedded queue manager. It is an *embedded.QMgr (and so a
// mqwatch.Connector); what it adds fails the test on an error.
type QM struct {
	*embedded.QMgr
	// Server is the command server, when Options.CommandServer started it.
	Server *embedded.CommandServer

	t   testing.TB
	ctx context.Context
}

// New builds the queue manager; what it starts ends with the test.
func New(t testing.TB, o Options) *QM {
	t.Helper()
	qm := &QM{t: t, ctx: context.Background(), QMgr: embedded.New(embedded.Options{Name: o.Name, Now: o.Now,
		ProcessUser: o.ProcessUser, ProgramName: o.ProgramName, Groups: o.Groups, Seed: o.Seed})}
	if o.MQSC != "" {
		qm.MQSC(o.MQSC)
	}
	if o.CommandServer {
		srv, err := qm.StartCommandServer()
		if err != nil {
			t.Fatalf("start the command server of %s: %v", qm.Name(), err)
		}
		qm.Server = srv
		t.Cleanup(func() {
			if err := srv.Stop(); err != nil {
				t.Errorf("command server of %s: %v", qm.Name(), err)
			}
		})
	}
	return qm
}

// At is a clock stopped at t.
func At(t time.Time) func() time.Time { return func() time.Time { return t } }

// MQSC runs an MQSC script; a syntax error or a command that fails fails
// the test with the command's line.
func (qm *QM) MQSC(script string) embedded.Report {
	qm.t.Helper()
	rep, err := qm.RunMQSC(strings.NewReader(script))
	if failed := rep.Failed(); len(failed) > 0 {
		var b strings.Builder
		for _, r := range failed {
			fmt.Fprintf(&b, "\n  line %d: %s", r.Line, r.Command)
			if r.Object != "" {
				fmt.Fprintf(&b, "(%s)", r.Object)
			}
			fmt.Fprintf(&b, ": %s", r.Message)
		}
		qm.t.Fatalf("MQSC on %s: %d of %d commands failed:%s", qm.Name(), len(failed), len(rep.Results), b.String())
	}
	if err != nil {
		qm.t.Fatalf("MQSC on %s: %v", qm.Name(), err) // a syntax error names its line
	}
	return rep
}

// Conn connects with opts; the connection is closed at the test's end.
// (qm.QMgr.Connect is the port's Connect, which returns the error.)
func (qm *QM) Conn(opts mqwatch.ConnectOptions) mqwatch.Conn {
	qm.t.Helper()
	c, err := qm.QMgr.Connect(qm.ctx, opts)
	if err != nil {
		qm.t.Fatalf("connect to %s: %v", qm.Name(), err)
	}
	qm.t.Cleanup(func() { _ = c.Close() })
	return c
}

// own runs f on a connection of its own, as the process user, closed
// after: a connection the test broke (BreakAll, a fault) is never reused.
func (qm *QM) own(f func(c mqwatch.Conn)) {
	qm.t.Helper()
	c, err := qm.QMgr.Connect(qm.ctx, mqwatch.ConnectOptions{})
	if err != nil {
		qm.t.Fatalf("connect to %s: %v", qm.Name(), err)
	}
	defer c.Close()
	f(c)
}

// Put puts a message on queue (Put on a connection of its own) and returns
// its MQMD as put.
func (qm *QM) Put(queue string, md mqfmt.MQMD, data []byte) (put mqfmt.MQMD) {
	qm.t.Helper()
	qm.own(func(c mqwatch.Conn) { put = Put(qm.t, c, queue, md, data) })
	return put
}

// Browse is every message on queue (Browse on a connection of its own).
func (qm *QM) Browse(queue string) (msgs []mqwatch.Message) {
	qm.t.Helper()
	qm.own(func(c mqwatch.Conn) { msgs = Browse(qm.t, c, queue) })
	return msgs
}

// Depth is the number of messages Browse finds on queue.
func (qm *QM) Depth(queue string) int {
	qm.t.Helper()
	return len(qm.Browse(queue))
}

// Put puts a message on queue through c, outside syncpoint, with set-all
// context: the MQMD's identity and origin context are kept as given. It
// returns the MQMD as put.
func Put(t testing.TB, c mqwatch.Conn, queue string, md mqfmt.MQMD, data []byte) mqfmt.MQMD {
	t.Helper()
	ctx := context.Background()
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Output: true, SetAllContext: true})
	if err != nil {
		t.Fatalf("open %s: %v", queue, err)
	}
	defer q.Close(ctx)
	if err := q.Put(ctx, &md, data, mqwatch.PutOptions{Context: mqwatch.ContextSetAll}); err != nil {
		t.Fatalf("put %s: %v", queue, err)
	}
	return md
}

// Browse returns every message on queue through c, whole, in order,
// leaving them there.
func Browse(t testing.TB, c mqwatch.Conn, queue string) []mqwatch.Message {
	t.Helper()
	ctx := context.Background()
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		t.Fatalf("open %s: %v", queue, err)
	}
	defer q.Close(ctx)
	var out []mqwatch.Message
	for opts := (mqwatch.BrowseOptions{First: true}); ; opts.First = false {
		m, err := q.Browse(ctx, opts)
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return out
		}
		if err != nil {
			t.Fatalf("browse %s: %v", queue, err)
		}
		out = append(out, m)
	}
}

// Package doctor checks, before the dashboard starts, everything a first
// connection to a queue manager needs, in the order a failure hides the
// next: how the connection was chosen, MQCONNX, the command server, then
// each authority a feature of poisonwatch needs, with the setmqaut and SET
// AUTHREC lines that grant what is missing to the user that connected.
// It runs on any mqwatch.Connector: the IBM MQ backend and the embedded
// queue manager (with its authority records) alike.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// Exit codes of a run.
const (
	ExitOK           = 0 // every check passed
	ExitDegraded     = 1 // connected, but some feature will not work
	ExitNoConnection = 2 // no connection (or settings that cannot connect)
)

// Check is one line of the doctor's output.
type Check struct {
	Name    string   `json:"name"`
	OK      bool     `json:"ok"`
	Unknown bool     `json:"unknown,omitempty"` // could not be told (OK is true: it fails nothing)
	Why     string   `json:"why"`
	Feature string   `json:"feature,omitempty"` // what does not work when it fails
	Details []string `json:"details,omitempty"` // where each setting came from, hints
	Fix     []string `json:"fix,omitempty"`     // setmqaut and SET AUTHREC lines
}

// Report is a run's outcome for one queue manager.
type Report struct {
	QMgr   string  `json:"qmgr"`
	User   string  `json:"user,omitempty"` // the principal the authorities are for
	Checks []Check `json:"checks"`
	Exit   int     `json:"exit"`
}

// Problems lists the failed checks' names and reasons, for a header.
func (r *Report) Problems() []string {
	var out []string
	for _, c := range r.Checks {
		if !c.OK {
			out = append(out, c.Name+": "+c.Why)
		}
	}
	return out
}

// Admin opens the PCF conversation on a connection: nil uses the port
// (pcf.OpenPort), as with the embedded queue manager's command server.
type Admin func(ctx context.Context, c mqwatch.Conn) (cl *pcf.Client, closeFn func() error, err error)

// Target is one queue manager to check.
type Target struct {
	Name      string // as configured ("" = the default queue manager)
	Connector mqwatch.Connector
	Connect   mqwatch.ConnectOptions
	// Principal is who the authorities are checked for when the queue
	// manager does not say (DISPLAY CONN of this connection names the user
	// it really runs as: a channel's MCAUSER or a CHLAUTH mapping win).
	Principal string
	// Settings is the first check: how the connection was chosen and where
	// each setting came from. A failed one ends the run with no connection.
	Settings Check
	// Client says the connection is a client one: the hints after a failed
	// MQCONNX speak of channels, CHLAUTH and CONNAUTH.
	Client bool
	Admin  Admin
	// Wait bounds each PCF command (5s when 0).
	Wait time.Duration
	// CommandQueue and ReplyModel are the queues the PCF conversation uses
	// and the checks look at (--command-queue, --reply-model): by default
	// SYSTEM.ADMIN.COMMAND.QUEUE and SYSTEM.DEFAULT.MODEL.QUEUE, or on z/OS
	// SYSTEM.COMMAND.INPUT and SYSTEM.COMMAND.REPLY.MODEL.
	CommandQueue, ReplyModel string
}

// z/OS's command server queues.
const (
	zosCommandQueue = "SYSTEM.COMMAND.INPUT"
	zosReplyModel   = "SYSTEM.COMMAND.REPLY.MODEL"
)

// ConnectWarner is a Connector that keeps the warning of its last MQCONNX
// (MQCC_WARNING: connected, but something is worth saying), as the IBM MQ
// backend does.
type ConnectWarner interface{ ConnectWarning() error }

// Run checks t. It never fails: every problem is a check in the report.
func Run(ctx context.Context, t Target) Report {
	r := Report{QMgr: t.Name, User: t.Principal}
	add := func(c Check) { r.Checks = append(r.Checks, c) }
	add(t.Settings)
	if !t.Settings.OK {
		r.Exit = ExitNoConnection
		return r
	}
	conn, err := t.Connector.Connect(ctx, t.Connect)
	warning := error(nil)
	switch {
	case err != nil && conn != nil && mqwatch.IsWarning(err):
		warning = err // connected: the warning is said, not lost
	case err != nil:
		add(connectFailure(t, err))
		r.Exit = ExitNoConnection
		return r
	}
	if w, ok := t.Connector.(ConnectWarner); ok && warning == nil {
		warning = w.ConnectWarning()
	}
	defer conn.Close()
	s := &session{t: t, conn: conn, r: &r}
	add(s.connected(warning))
	s.commandServer(ctx)
	s.authorities(ctx)
	for _, c := range s.closers {
		_ = c()
	}
	r.Exit = ExitOK
	for _, c := range r.Checks {
		if !c.OK {
			r.Exit = ExitDegraded
		}
	}
	return r
}

// session is one run on a live connection.
type session struct {
	t       Target
	conn    mqwatch.Conn
	r       *Report
	cl      *pcf.Client // nil when the command server cannot be used
	info    mqwatch.QMgrInfo
	hasInf  bool
	closers []func() error
	// zos: the queue manager runs on z/OS; cmdQ and replyModel are the
	// PCF queues used and checked.
	zos              bool
	cmdQ, replyModel string
}

func (s *session) add(c Check) { s.r.Checks = append(s.r.Checks, c) }

func (s *session) connected(warning error) Check {
	why := "connected"
	if s.t.Name != "" {
		why = "connected to " + s.t.Name
	}
	if warning != nil {
		why += ", with a warning: " + describe(warning)
	}
	return Check{Name: "MQCONNX", OK: true, Why: why}
}

// connectFailure explains a failed MQCONNX: the reason's name and meaning,
// and what it usually is on a first connection.
func connectFailure(t Target, err error) Check {
	c := Check{Name: "MQCONNX", Why: mqfmt.Sanitize(err.Error())}
	rc := mqwatch.ReasonOf(err)
	if rc == 0 {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			c.Details = []string{"MQCONNX did not answer in time: a firewall dropping packets, or a channel waiting on a TLS handshake"}
		}
		return c
	}
	c.Why = fmt.Sprintf("%s (%d): %s", rc, int32(rc), rc.Explain())
	c.Details = connectHints(rc, t.Client)
	if rc == mqfmt.RCNotAuthorized && t.Principal != "" && !t.Client {
		c.Fix = grant(t.Name, pcf.ObjQMgr, "", t.Principal, []pcf.Auth{pcf.AuthConnect})
	}
	return c
}

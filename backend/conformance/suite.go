package conformance

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Backend is what the suite needs from a backend besides the port itself.
type Backend interface {
	mqwatch.Connector
	// QMgrName is the name the queue manager reports in QMgrInfo.Name.
	QMgrName() string
	// ApplyMQSC brings the queue manager to the state the MQSC script
	// defines, with runmqsc's semantics. A backend whose administrator ran
	// the script beforehand may do nothing: the suite checks the result.
	ApplyMQSC(ctx context.Context, script string) error
}

// ConnectionBreaker is an optional capability: a backend that can break one
// connection as a network failure or a killed channel would. After it, every
// call on that connection fails with MQRC_CONNECTION_BROKEN (2009) and the
// queue manager backs out its unit of work.
type ConnectionBreaker interface {
	BreakConnection(c mqwatch.Conn) error
}

// Clock is an optional capability: a backend whose notion of time the suite
// can move forward, so that expiry and message ages are checked without
// sleeping. Now must never run behind the wall clock the backend started at.
type Clock interface {
	Now() time.Time
	Advance(d time.Duration)
}

// caseTimeout bounds one test so that a backend that hangs fails the test that
// found it instead of the whole run; every call honours the context.
const caseTimeout = 60 * time.Second

// testCase is one named behaviour.
type testCase struct {
	name string
	fn   func(e *env)
}

// group is a family of behaviours run as one parent subtest.
type group struct {
	name  string
	cases []testCase
}

// groups lists every behaviour the suite checks, in the order they run.
func groups() []group {
	return []group{
		{"order", orderCases()},
		{"descriptor", msgIDCases()},
		{"context", contextCases()},
		{"authority", authorityCases()},
		{"uow", uowCases()},
		{"limits", limitCases()},
		{"wait", waitCases()},
		{"browse", browseCases()},
		{"cursor", cursorCases()},
		{"match", matchCases()},
		{"expiry", expiryCases()},
		{"resolve", resolveCases()},
		{"dynamic", dynamicCases()},
		{"status", statusCases()},
		{"handles", handleCases()},
		{"discovery", discoveryCases()},
		{"faults", faultCases()},
	}
}

// Run checks b against every behaviour of an IBM MQ queue manager that
// poisonwatch relies on. Each behaviour is a subtest named group/behaviour, so
// `-run 'Conformance/uow/'` selects one family. Optional capabilities a
// backend lacks are skipped with the reason printed; everything else fails
// when the backend does not behave as IBM MQ does.
func Run(t *testing.T, b Backend) {
	t.Helper()
	s := &suite{b: b}
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	err := b.ApplyMQSC(ctx, SetupMQSC)
	cancel()
	if err != nil {
		t.Fatalf("apply SetupMQSC: %v", err)
	}
	if !s.setupPresent(t) {
		return
	}
	for _, g := range groups() {
		t.Run(g.name, func(t *testing.T) {
			for _, c := range g.cases {
				t.Run(c.name, func(t *testing.T) { s.runCase(t, c) })
			}
		})
	}
}

// suite is the state shared by every test of one Run.
type suite struct {
	b Backend
}

// runCase gives a test a fresh environment with emptied queues, and turns a
// backend panic into a failure of that test alone.
func (s *suite) runCase(t *testing.T, c testCase) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("backend panicked: %v\n%s", r, debug.Stack())
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	e := &env{t: t, s: s, ctx: ctx}
	e.clearQueues(clearable...)
	c.fn(e)
}

// setupPresent fails the run with instructions when the CONF objects are
// missing, which on IBM MQ means nobody ran SetupMQSC.
func (s *suite) setupPresent(t *testing.T) bool {
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	c, err := s.b.Connect(ctx, mqwatch.ConnectOptions{User: UserAdmin, ApplName: "conformance-setup"})
	if err != nil {
		t.Fatalf("connect as %s: %v", UserAdmin, err)
		return false
	}
	defer c.Close()
	qs, err := c.Queues(ctx, "CONF.*")
	if err != nil {
		t.Fatalf("list CONF.* queues: %v", err)
		return false
	}
	have := map[string]bool{}
	for _, q := range qs {
		have[q.Name] = true
	}
	var missing []string
	want := []string{qDeadQ, qMain, qOther, qFIFO, qAliasDefs, qSmall, qPutInh, qGetInh, qBase, qBOQ, qAlias, qAliasBad,
		qXmit, qRemote, qModel, qDurModel, qNDurModel, qStatus, qMonitored, qUnmonitor, qSecure}
	for _, n := range want {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("queues %v are not defined: run SetupMQSC with runmqsc first "+
			"(go test ./backend/conformance -run TestPrintSetup -v prints it)", missing)
		return false
	}
	return true
}

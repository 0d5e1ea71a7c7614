//go:build ibmmq

package conformance

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/backend/ibmmq"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestIBMMQ holds a real IBM MQ queue manager, through the IBM MQ backend, to
// the conformance suite. The package documentation lists the environment it
// reads; an administrator must have run SetupMQSC first.
func TestIBMMQ(t *testing.T) {
	qmgr := os.Getenv(envTestQMgr)
	if qmgr == "" {
		t.Skipf("%s is not set: no IBM MQ queue manager to check (see `go doc ./backend/conformance`)", envTestQMgr)
	}
	b, err := newIBMBackend(qmgr, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	Run(t, b)
}

const (
	envTestQMgr        = "POISONWATCH_TEST_QMGR"
	envPasswordPrefix  = "POISONWATCH_TEST_PASSWORD_"
	ibmPrincipalsCount = 4
)

// ibmBackend gives each suite principal its own IBM MQ backend: IBM MQ checks
// the user it authenticates (MQCSP), so a connection's user comes from its
// settings, not from ConnectOptions. It offers neither optional capability:
// a real queue manager's clock cannot be moved and its connections cannot be
// broken on demand.
type ibmBackend struct {
	qmgr   string
	byUser map[string]*ibmmq.Backend
}

// passwordVar names the variable holding a principal's password.
func passwordVar(user string) string { return envPasswordPrefix + strings.ToUpper(user) }

func newIBMBackend(qmgr string, getenv func(string) string) (*ibmBackend, error) {
	b := &ibmBackend{qmgr: qmgr, byUser: make(map[string]*ibmmq.Backend, ibmPrincipalsCount)}
	for _, user := range []string{UserAdmin, UserApp, UserMover, UserNone} {
		s := ibmmq.FromEnv(getenv)
		s.QMgr = qmgr
		// Without a password the principal is the process's own identity:
		// local bindings run by that user, or a channel that maps it.
		s.User, s.Password = "", ibmmq.NewSecret("")
		if pw := getenv(passwordVar(user)); pw != "" {
			s.User, s.Password = user, ibmmq.NewSecret(pw)
		}
		if err := s.Resolve(nil); err != nil {
			return nil, fmt.Errorf("IBM MQ settings for %s: %w", user, err)
		}
		be, err := ibmmq.New(s)
		if err != nil {
			return nil, fmt.Errorf("IBM MQ backend for %s: %w", user, err)
		}
		b.byUser[user] = be
	}
	return b, nil
}

func (b *ibmBackend) Connect(ctx context.Context, o mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	be, ok := b.byUser[o.User]
	if !ok {
		return nil, fmt.Errorf("conformance: no IBM MQ settings for user %q", o.User)
	}
	if be.Settings().User == "" {
		o.User = ""
	}
	return be.Connect(ctx, o)
}

func (b *ibmBackend) QMgrName() string { return b.qmgr }

// ApplyMQSC does nothing: the port cannot define objects, so an
// administrator runs SetupMQSC with runmqsc beforehand, and Run checks that
// the objects exist.
func (b *ibmBackend) ApplyMQSC(context.Context, string) error { return nil }

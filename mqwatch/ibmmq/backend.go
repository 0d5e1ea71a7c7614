//go:build ibmmq

package ibmmq

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	mq "github.com/ibm-messaging/mq-golang/v5/ibmmq"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Backend connects to one IBM MQ queue manager; it is the mqwatch.Connector of
// the IBM MQ backend. Each Connect opens its own MQI connection: a connection
// runs one call at a time (MQRC_CALL_IN_PROGRESS, 2219, otherwise), so each
// watcher and the action engine each hold their own.
type Backend struct {
	s         Settings
	loc       *time.Location
	abandoned *abandonedConns // connections held open after a failed MQBACK
}

var _ mqwatch.Connector = (*Backend)(nil)

// New returns a Backend for settings that Resolve has completed.
func New(s Settings) (*Backend, error) {
	if err := s.validate(); err != nil {
		return nil, err
	}
	if err := s.resolveCredentials(nil); err != nil {
		return nil, err
	}
	if s.ReplyModel == "" || s.CommandQueue == "" || s.CommandWait <= 0 || s.MaxMsgLength <= 0 {
		return nil, errors.New("ibmmq: settings are not resolved: call Settings.Resolve first")
	}
	loc, err := s.Location()
	if err != nil {
		return nil, err
	}
	return &Backend{s: s, loc: loc, abandoned: &abandonedConns{}}, nil
}

// FromEnvironment builds a Backend from environment variables only (no flags,
// no prompt): what a test harness such as the conformance suite uses.
func FromEnvironment() (*Backend, error) {
	s := FromEnv(os.Getenv)
	if err := s.Resolve(nil); err != nil {
		return nil, err
	}
	return New(s)
}

// Settings returns the settings the backend connects with.
func (b *Backend) Settings() Settings { return b.s }

// Connect opens an MQI connection (MQCONNX). MQCONNX cannot be interrupted, so
// when ctx ends first Connect returns ctx's error at once and the late
// connection, if it comes, is disconnected.
func (b *Backend) Connect(ctx context.Context, opts mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("MQCONNX %s: %w", b.s.QMgr, err)
	}
	if opts.User != "" && opts.User != b.s.User {
		return nil, fmt.Errorf("MQCONNX %s: user %q differs from %s %q: IBM MQ checks the user it authenticates (MQCSP), so set %s instead",
			b.s.QMgr, opts.User, EnvUser, b.s.User, EnvUser)
	}
	b.abandoned.retry(reasonIn)
	if err := b.abandoned.admit(); err != nil {
		return nil, fmt.Errorf("MQCONNX %s: %w", b.s.QMgr, err)
	}
	cno, err := b.connectOptions(opts.ApplName)
	if err != nil {
		return nil, err
	}
	type result struct {
		qm  mq.MQQueueManager
		err error
	}
	done := make(chan result) // unbuffered: a late result is either taken or disconnected
	abandoned := make(chan struct{})
	go func() {
		qm, err := mq.Connx(b.s.QMgr, cno)
		select {
		case <-abandoned:
			if err == nil {
				_ = qm.Disc()
			}
		case done <- result{qm, err}:
		}
	}()
	select {
	case <-ctx.Done():
		close(abandoned)
		return nil, fmt.Errorf("MQCONNX %s: %w", b.s.QMgr, ctx.Err())
	case r := <-done:
		if r.err != nil {
			return nil, b.connectError(r.err)
		}
		return newConn(b, r.qm), nil
	}
}

func (b *Backend) connectError(err error) error {
	var rc *mq.MQReturn
	if errors.As(err, &rc) {
		return fmt.Errorf("connect (%s): %w", b.s.Mode(), mqErr("MQCONNX", b.s.QMgr, rc.MQCC, rc.MQRC))
	}
	return fmt.Errorf("MQCONNX %s: %w", b.s.QMgr, err)
}

// connectOptions builds the MQCNO. Client connections disable MQ's automatic
// reconnection: it would reopen handles behind the port's back, resetting
// browse cursors and backing out units of work silently, while the watcher
// expects MQRC_CONNECTION_BROKEN and reconnects itself.
func (b *Backend) connectOptions(applName string) (*mq.MQCNO, error) {
	s := &b.s
	cno := mq.NewMQCNO()
	cno.Options = cnoHandleShareNoBlock
	if len(applName) > 28 {
		applName = applName[:28]
	}
	cno.ApplName = applName
	mode := s.Mode()
	if mode != ModeBindings {
		cno.Options |= cnoClientBinding | cnoReconnectDisabled
	}
	switch mode {
	case ModeFlags:
		cno.ClientConn = b.channel(s.Channel, s.ConnName)
	case ModeMQServer:
		srv, err := ParseMQServer(s.MQServer)
		if err != nil {
			return nil, err
		}
		cno.ClientConn = b.channel(srv.Channel, srv.ConnName)
	case ModeCCDTURL:
		cno.CCDTUrl = s.CCDTURL
	}
	if s.KeyRepository != "" {
		sco := mq.NewMQSCO()
		sco.KeyRepository = s.KeyRepository
		sco.CertificateLabel = s.CertLabel
		cno.SSLConfig = sco
	}
	if s.User != "" {
		csp := mq.NewMQCSP()
		csp.AuthenticationType = cspAuthUserIDAndPassword
		csp.UserId = s.User
		csp.Password = s.Password.value()
		cno.SecurityParms = csp
	}
	return cno, nil
}

// channel builds a CLNTCONN definition. MaxMsgLength is raised from
// mq-golang's 4 MB default so messages up to the queue's MAXMSGL can be read.
func (b *Backend) channel(name, connName string) *mq.MQCD {
	cd := mq.NewMQCD()
	cd.ChannelName = name
	cd.ConnectionName = connName
	cd.MaxMsgLength = b.s.MaxMsgLength
	cd.SSLCipherSpec = b.s.CipherSpec
	cd.CertificateLabel = b.s.CertLabel
	return cd
}

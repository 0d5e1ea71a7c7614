//go:build ibmmq

package ibmmq

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
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

	warnMu  sync.Mutex
	warning error // of the last MQCONNX that connected with a warning
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
		qm, ok, err := b.connxResult(mq.Connx(b.s.QMgr, cno))
		select {
		case <-abandoned:
			if ok {
				_ = qm.Disc() // a warning's handle too: no channel instance left behind
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

// connectOptions copies the ConnectSpec (spec.go, where every decision is
// made and tested) into mq-golang's MQCNO.
func (b *Backend) connectOptions(applName string) (*mq.MQCNO, error) {
	spec, err := b.s.ConnectSpec(applName)
	if err != nil {
		return nil, err
	}
	cno := mq.NewMQCNO()
	cno.Options, cno.ApplName, cno.CCDTUrl = spec.Options, spec.ApplName, spec.CCDTURL
	if ch := spec.Channel; ch != nil {
		cd := mq.NewMQCD()
		cd.ChannelName, cd.ConnectionName, cd.MaxMsgLength = ch.ChannelName, ch.ConnectionName, ch.MaxMsgLength
		cd.SSLCipherSpec, cd.SSLPeerName, cd.CertificateLabel = ch.SSLCipherSpec, ch.SSLPeerName, ch.CertificateLabel
		cno.ClientConn = cd
	}
	if t := spec.TLS; t != nil {
		sco := mq.NewMQSCO()
		sco.KeyRepository, sco.CertificateLabel = t.KeyRepository, t.CertificateLabel
		sco.KeyRepoPassword = t.KeyRepoPassword.value()
		cno.SSLConfig = sco
	}
	if a := spec.Auth; a != nil {
		csp := mq.NewMQCSP()
		csp.AuthenticationType, csp.UserId = a.AuthenticationType, a.UserID
		csp.Password, csp.Token = a.Password.value(), a.Token.value()
		cno.SecurityParms = csp
	}
	return cno, nil
}

// ConnectWarning is the warning of the last MQCONNX that connected with
// one (MQCC_WARNING), or nil.
func (b *Backend) ConnectWarning() error {
	b.warnMu.Lock()
	defer b.warnMu.Unlock()
	return b.warning
}

// connxResult sorts an MQCONNX result: a warning comes with a live handle,
// kept and recorded (ConnectOutcome), never dropped unclosed.
func (b *Backend) connxResult(qm mq.MQQueueManager, err error) (mq.MQQueueManager, bool, error) {
	var rc *mq.MQReturn
	if err == nil {
		return qm, true, nil
	}
	if errors.As(err, &rc) && ConnectOutcome(rc.MQCC) {
		b.warnMu.Lock()
		b.warning = b.connectError(err)
		b.warnMu.Unlock()
		return qm, true, nil
	}
	return qm, false, err
}

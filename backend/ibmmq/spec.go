package ibmmq

// The MQCNO, MQCD, MQSCO and MQCSP an MQCONNX passes are decided here, in
// plain structures, so every connection method is tested without the MQ
// client; connectOptions (tag ibmmq) copies them field by field into
// mq-golang's.

// ChannelSpec is the MQCD of a channel built here (flags or MQSERVER).
type ChannelSpec struct {
	ChannelName      string
	ConnectionName   string
	MaxMsgLength     int32
	SSLCipherSpec    string
	SSLPeerName      string
	CertificateLabel string
}

// TLSSpec is the MQSCO.
type TLSSpec struct {
	KeyRepository    string
	CertificateLabel string
	KeyRepoPassword  Secret
}

// AuthSpec is the MQCSP.
type AuthSpec struct {
	AuthenticationType int32
	UserID             string
	Password           Secret
	Token              Secret
}

// ConnectSpec is the MQCNO.
type ConnectSpec struct {
	QMgrName string // what MQCONNX is given: "*NAME" for a queue-manager group
	Options  int32
	ApplName string
	CCDTURL  string
	Channel  *ChannelSpec
	TLS      *TLSSpec
	Auth     *AuthSpec
}

// cspAuthIDToken is MQCSP_AUTH_ID_TOKEN.
const cspAuthIDToken = 2

// ConnectSpec builds what MQCONNX is passed. Client connections disable MQ's
// automatic reconnection: it would reopen handles behind the port's back,
// resetting browse cursors and backing out units of work silently, while
// the watcher expects MQRC_CONNECTION_BROKEN and reconnects itself.
func (s *Settings) ConnectSpec(applName string) (ConnectSpec, error) {
	if len(applName) > 28 {
		applName = applName[:28]
	}
	c := ConnectSpec{QMgrName: s.QMgr, Options: cnoHandleShareNoBlock, ApplName: applName}
	mode := s.Mode()
	if mode != ModeBindings {
		c.Options |= cnoClientBinding | cnoReconnectDisabled
	}
	switch mode {
	case ModeFlags:
		c.Channel = s.channelSpec(s.Channel, s.ConnName)
	case ModeMQServer:
		srv, err := ParseMQServer(s.MQServer)
		if err != nil {
			return c, err
		}
		c.Channel = s.channelSpec(srv.Channel, srv.ConnName)
	case ModeCCDTURL:
		c.CCDTURL = s.CCDTURL
	}
	if s.KeyRepository != "" || s.KeyRepoPassword.IsSet() {
		c.TLS = &TLSSpec{KeyRepository: s.mqscoKeyRepository(), CertificateLabel: s.CertLabel, KeyRepoPassword: s.KeyRepoPassword}
	}
	switch {
	case s.Token.IsSet():
		c.Auth = &AuthSpec{AuthenticationType: cspAuthIDToken, Token: s.Token}
	case s.User != "":
		c.Auth = &AuthSpec{AuthenticationType: cspAuthUserIDAndPassword, UserID: s.User, Password: s.Password}
	}
	return c, nil
}

// channelSpec is a CLNTCONN definition. MaxMsgLength is raised from
// mq-golang's 4 MB default so messages up to the queue's MAXMSGL can be read.
func (s *Settings) channelSpec(name, connName string) *ChannelSpec {
	return &ChannelSpec{ChannelName: name, ConnectionName: connName, MaxMsgLength: s.MaxMsgLength,
		SSLCipherSpec: s.CipherSpec, SSLPeerName: s.SSLPeer, CertificateLabel: s.CertLabel}
}

// ConnectOutcome says what to do with the result of an MQCONNX: a warning
// (MQCC_WARNING, e.g. MQRC_SSL_ALREADY_INITIALIZED, 2391, when an earlier
// connection of this process started TLS with other settings) comes with a
// live connection handle, which is kept and reported; only a failure has
// none. Treating a warning as a failure would leak one channel instance
// per retry.
func ConnectOutcome(cc int32) (connected bool) { return cc == ccOK || cc == ccWarning }

const (
	ccOK      = 0
	ccWarning = 1
	ccFailed  = 2
)

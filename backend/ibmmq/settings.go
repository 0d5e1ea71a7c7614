package ibmmq

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

// Environment variables. The MQ* ones are IBM's own, read here with IBM's
// precedence; MQ_USER and MQ_PASSWORD carry credentials (never argv); the
// POISONWATCH_MQ_* ones mirror the flags so that a test harness or a service
// can configure the backend without a command line.
const (
	EnvMQServer     = "MQSERVER"
	EnvCCDTURL      = "MQCCDTURL"
	EnvChlLib       = "MQCHLLIB"
	EnvChlTab       = "MQCHLTAB"
	EnvSSLKeyR      = "MQSSLKEYR"
	EnvUser         = "MQ_USER"
	EnvPassword     = "MQ_PASSWORD"
	EnvQMgr         = "POISONWATCH_MQ_QMGR"
	EnvChannel      = "POISONWATCH_MQ_CHANNEL"
	EnvConnName     = "POISONWATCH_MQ_CONNNAME"
	EnvCipherSpec   = "POISONWATCH_MQ_CIPHER"
	EnvKeyRepo      = "POISONWATCH_MQ_KEYR"
	EnvCertLabel    = "POISONWATCH_MQ_CERTLABEL"
	EnvTimeZone     = "POISONWATCH_MQ_TZ"
	EnvReplyModel   = "POISONWATCH_MQ_MODELQ"
	EnvCommandQueue = "POISONWATCH_MQ_CMDQ"
	// EnvConnectType is IBM's MQ_CONNECT_TYPE: CLIENT makes the connection a
	// client one whatever else is set (mqclient.ini, the default CCDT).
	EnvConnectType = "MQ_CONNECT_TYPE"
	// EnvKeyRepoPassword is IBM's MQKEYRPWD: the key repository's password,
	// for a .p12 (which has no stash file) or a .kdb without its .sth.
	EnvKeyRepoPassword = "MQKEYRPWD"
	EnvSSLPeer         = "POISONWATCH_MQ_SSLPEER"
	EnvPasswordFile    = "POISONWATCH_MQ_PASSWORD_FILE"
	EnvTokenFile       = "POISONWATCH_MQ_TOKEN_FILE"
)

// Defaults for the administrative (PCF) conversation.
const (
	DefaultReplyModel   = "SYSTEM.DEFAULT.MODEL.QUEUE"
	DefaultCommandQueue = "SYSTEM.ADMIN.COMMAND.QUEUE"
	DefaultCommandWait  = 15 * time.Second
	// DefaultChannelMaxMsgLength is what an MQCD built here asks for. mq-golang's
	// NewMQCD asks for 4 MB (the CLNTCONN default), which makes every larger
	// message fail with 2010 on a client connection (mq-golang issue #118); the
	// channel negotiates the lower of both ends, so asking for 100 MB is safe.
	DefaultChannelMaxMsgLength = maxMsgLength
)

// Mode says how the backend connects.
type Mode int

// Connection modes, in IBM's order of precedence for client channel definitions.
const (
	ModeBindings Mode = iota // local bindings on the MQ host (no client settings)
	ModeFlags                // client, channel and connection name from flags
	ModeMQServer             // client, MQSERVER
	ModeCCDTURL              // client, CCDT from MQCCDTURL
	ModeChlTab               // client, CCDT from MQCHLLIB/MQCHLTAB, read by the MQ library
	ModeClient               // client, --client: the MQ library finds the channel (mqclient.ini, default CCDT)
)

func (m Mode) String() string {
	switch m {
	case ModeFlags:
		return "client (channel flags)"
	case ModeMQServer:
		return "client (MQSERVER)"
	case ModeCCDTURL:
		return "client (CCDT from MQCCDTURL)"
	case ModeChlTab:
		return "client (CCDT from MQCHLLIB/MQCHLTAB)"
	case ModeClient:
		return "client (--client: mqclient.ini or the default CCDT, read by the MQ library)"
	}
	return "local bindings"
}

// Settings are everything the backend needs to reach one queue manager. Build
// them with FromEnv and RegisterFlags, then call Resolve.
type Settings struct {
	QMgr          string // queue manager name; "" = the default queue manager
	Channel       string // SVRCONN channel (flag); needs ConnName
	ConnName      string // "host(port)[,host(port)...]" (flag)
	CipherSpec    string // SSLCIPH for a channel built here (flag or MQSERVER)
	KeyRepository string // key repository stem; "" = MQSSLKEYR, read by the MQ library
	CertLabel     string // CERTLABL for a channel built here
	MQServer      string // MQSERVER
	CCDTURL       string // MQCCDTURL
	ChlLib        string // MQCHLLIB
	ChlTab        string // MQCHLTAB
	User          string // MQ_USER; "" = the process's user, no MQCSP
	Password      Secret // MQ_PASSWORD or the prompt; never from argv
	ReplyModel    string // model queue the PCF reply queue is created from
	CommandQueue  string // queue PCF commands are put to
	CommandWait   time.Duration
	// TimeZone is where the queue manager keeps LPUTDATE/LPUTTIME and
	// LGETDATE/LGETTIME: queue status reports them in the queue manager's local
	// time without a zone, unlike the MQMD's PutDate/PutTime, which are GMT.
	// "" = this process's local zone (right for local bindings on the MQ host).
	TimeZone string
	// MaxMsgLength is the MAXMSGL asked for on a channel built here.
	MaxMsgLength int32
	// UnattendedAfter is the --qmgrs entry's unattended_after (R8f's
	// threshold, "" for the --unattended-after flag's): not a connection
	// setting, kept for the dashboard that reads the file.
	UnattendedAfter string

	Client          bool   // --client or MQ_CONNECT_TYPE=CLIENT: client mode with the MQ library's own lookup
	SSLPeer         string // SSLPEER of a channel built here (--sslpeer)
	KeyRepoPassword Secret // MQKEYRPWD or --keyr-password-file: MQSCO.KeyRepoPassword
	KeyRepoPwFile   string // --keyr-password-file
	// KeyRepoPasswordIni is the mqclient.ini whose SSL stanza gives the key
	// repository's password (SSLKeyRepositoryPassword), found by Resolve.
	KeyRepoPasswordIni string
	PasswordFile       string // --password-file: the MQCSP password, from a file only its owner reads
	TokenFile          string // --token-file: an authentication token (MQCSP.Token)
	Token              Secret
	// Sources says where each setting came from ("flag --channel",
	// "MQSERVER", "--qmgrs entry QM2"), for the doctor.
	Sources map[string]string
}

// FromEnv reads Settings from environment variables (getenv is os.Getenv in
// production; tests pass a map). Credentials are read too; see Resolve.
func FromEnv(getenv func(string) string) Settings {
	return Settings{
		QMgr:          getenv(EnvQMgr),
		Channel:       getenv(EnvChannel),
		ConnName:      getenv(EnvConnName),
		CipherSpec:    getenv(EnvCipherSpec),
		KeyRepository: getenv(EnvKeyRepo),
		CertLabel:     getenv(EnvCertLabel),
		MQServer:      getenv(EnvMQServer),
		CCDTURL:       getenv(EnvCCDTURL),
		ChlLib:        getenv(EnvChlLib),
		ChlTab:        getenv(EnvChlTab),
		User:          getenv(EnvUser),
		Password:      NewSecret(getenv(EnvPassword)),
		ReplyModel:    getenv(EnvReplyModel),
		CommandQueue:  getenv(EnvCommandQueue),
		TimeZone:      getenv(EnvTimeZone),
	}.withEnv(getenv)
}

// RegisterFlags binds the connection flags to s. There is deliberately no user
// or password flag: argv is visible to every user of the host (ps, /proc).
func (s *Settings) RegisterFlags(fs *flag.FlagSet) {
	fs.Var(noted{&s.QMgr, s, "qmgr"}, "qmgr", "queue manager name (default: the default queue manager)")
	fs.Var(noted{&s.Channel, s, "channel"}, "channel", "SVRCONN channel for a client connection (with -conn)")
	fs.Var(noted{&s.ConnName, s, "conn"}, "conn", "connection name, host(port)[,host(port)...]")
	fs.Var(noted{&s.CipherSpec, s, "cipher"}, "cipher", "TLS CipherSpec of the channel (SSLCIPH)")
	fs.Var(noted{&s.KeyRepository, s, "keyr"}, "keyr", "TLS key repository: a stem (.kdb with its .sth), or a path ending .kdb or .p12 (default: $MQSSLKEYR)")
	fs.Var(noted{&s.CertLabel, s, "certlabel"}, "certlabel", "TLS certificate label (CERTLABL)")
	fs.StringVar(&s.TimeZone, "mq-tz", s.TimeZone, "time zone of the queue manager's status times, e.g. Europe/Paris or +02:00 (default: local)")
	fs.StringVar(&s.ReplyModel, "reply-model", s.ReplyModel, "model queue for the PCF reply queue (default "+DefaultReplyModel+")")
	fs.StringVar(&s.CommandQueue, "command-queue", s.CommandQueue, "command queue for PCF (default "+DefaultCommandQueue+")")
	s.registerConnFlags(fs)
}

// PasswordPrompter asks the operator for the password of user, without echo.
type PasswordPrompter func(user string) (string, error)

// Resolve checks the settings, fills defaults, and completes the credentials:
// with MQ_USER set and MQ_PASSWORD not, it asks prompt (nil = no terminal).
func (s *Settings) Resolve(prompt PasswordPrompter) error {
	if err := s.resolveShared(); err != nil {
		return err
	}
	if err := s.validate(); err != nil {
		return err
	}
	return s.resolveCredentials(prompt)
}

// ResolveForFile completes the settings a --qmgrs file's entries start
// from: defaults, the secret files, the zone and the credentials (one
// prompt for all), and no check of how a queue manager is reached, which
// is each entry's (its own Resolve): a token or -keyr given beside the file
// serves entries that are client connections although the flags alone
// name none.
func (s *Settings) ResolveForFile(prompt PasswordPrompter) error {
	if err := s.resolveShared(); err != nil {
		return err
	}
	if err := s.validateCredentials(); err != nil {
		return err
	}
	return s.resolveCredentials(prompt)
}

// resolveShared fills defaults, reads the secret files and mqclient.ini's
// SSL stanza, and checks the time zone.
func (s *Settings) resolveShared() error {
	if s.ReplyModel == "" {
		s.ReplyModel = DefaultReplyModel
	}
	if s.CommandQueue == "" {
		s.CommandQueue = DefaultCommandQueue
	}
	if s.CommandWait <= 0 {
		s.CommandWait = DefaultCommandWait
	}
	if s.MaxMsgLength <= 0 || s.MaxMsgLength > maxMsgLength {
		s.MaxMsgLength = DefaultChannelMaxMsgLength
	}
	if err := s.readSecretFiles(); err != nil {
		return err
	}
	s.lookInClientIni(os.Getenv)
	_, err := s.Location()
	return err
}

func (s *Settings) resolveCredentials(prompt PasswordPrompter) error {
	switch {
	case s.User == "" && s.Password.IsSet():
		return errors.New("ibmmq: " + EnvPassword + " is set but " + EnvUser + " is not")
	case s.User == "" || s.Password.IsSet():
		return nil
	case prompt == nil:
		return fmt.Errorf("ibmmq: %s is set but %s is not, and there is no terminal to ask for it", EnvUser, EnvPassword)
	}
	pw, err := prompt(s.User)
	if err != nil {
		return fmt.Errorf("ibmmq: password prompt: %w", err)
	}
	if pw == "" {
		return fmt.Errorf("ibmmq: empty password for %q", s.User)
	}
	s.Password = NewSecret(pw)
	return nil
}

// Mode returns how the backend will connect, following IBM's precedence: a
// channel given explicitly (here: flags), then MQSERVER, then MQCCDTURL, then
// MQCHLLIB/MQCHLTAB; with none of them, local bindings.
func (s *Settings) Mode() Mode {
	switch {
	case s.Channel != "" || s.ConnName != "":
		return ModeFlags
	case s.MQServer != "":
		return ModeMQServer
	case s.CCDTURL != "":
		return ModeCCDTURL
	case s.ChlLib != "" || s.ChlTab != "":
		return ModeChlTab
	case s.Client:
		return ModeClient
	}
	return ModeBindings
}

func (s *Settings) validate() error {
	if err := s.validateQMgr(); err != nil {
		return err
	}
	if err := s.validateTLS(); err != nil {
		return err
	}
	switch s.Mode() {
	case ModeFlags:
		if s.Channel == "" || s.ConnName == "" {
			return errors.New("ibmmq: a client channel needs both -channel and -conn")
		}
		if err := checkName("channel", s.Channel, 20); err != nil {
			return err
		}
		if _, err := ParseConnName(s.ConnName); err != nil {
			return err
		}
	case ModeMQServer:
		if _, err := ParseMQServer(s.MQServer); err != nil {
			return err
		}
	default:
		if s.CipherSpec != "" || s.CertLabel != "" || s.SSLPeer != "" {
			return fmt.Errorf("ibmmq: -cipher, -certlabel and -sslpeer apply to a channel given by flags or MQSERVER; with %s the channel definition carries its own", s.Mode())
		}
	}
	if s.Mode() == ModeBindings && s.KeyRepository != "" {
		return errors.New("ibmmq: -keyr needs a client connection; local bindings use no TLS")
	}
	if s.Mode() == ModeBindings && s.Token.IsSet() {
		return errTokenBindings
	}
	if s.Token.IsSet() {
		return tokenBuildError()
	}
	return nil
}

// errTokenBindings refuses a token before MQCONNX: IBM MQ (9.3.4 and later)
// accepts MQCSP token authentication only from a client connection to a
// queue manager on AIX or Linux; over local bindings MQCONNX fails with
// MQRC_FUNCTION_NOT_SUPPORTED (2298), MQRC_CSP_ERROR (2595) from 9.4.
var errTokenBindings = errors.New("ibmmq: --token-file: IBM MQ accepts an authentication token only on a client connection, " +
	"and this one is local bindings (MQCONNX would fail with MQRC_FUNCTION_NOT_SUPPORTED, 2298): connect as a client " +
	"(-channel and -conn, MQSERVER, MQCCDTURL or -client), or leave out --token-file to connect as this process's user")

// Location returns the time zone the queue manager reports status times in.
func (s *Settings) Location() (*time.Location, error) {
	return parseLocation(s.TimeZone)
}

// String summarises the settings for a log line or an error; the password is
// never part of it.
func (s Settings) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "qmgr=%q mode=%q", s.QMgr, s.Mode().String())
	switch s.Mode() {
	case ModeFlags:
		fmt.Fprintf(&b, " channel=%q conn=%q", s.Channel, s.ConnName)
	case ModeMQServer:
		fmt.Fprintf(&b, " MQSERVER=%q", s.MQServer)
	case ModeCCDTURL:
		fmt.Fprintf(&b, " MQCCDTURL=%q", s.CCDTURL)
	case ModeChlTab:
		fmt.Fprintf(&b, " MQCHLLIB=%q MQCHLTAB=%q", s.ChlLib, s.ChlTab)
	}
	if s.CipherSpec != "" {
		fmt.Fprintf(&b, " cipher=%q", s.CipherSpec)
	}
	if s.User != "" {
		fmt.Fprintf(&b, " user=%q password=%s", s.User, s.Password)
	}
	return b.String()
}

// checkName accepts "" and IBM MQ object names: up to max characters from
// A-Z a-z 0-9 . / _ %.
func checkName(what, name string, max int) error {
	if len(name) > max {
		return fmt.Errorf("ibmmq: %s name %q is longer than %d characters", what, name, max)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		ok := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' ||
			c == '.' || c == '/' || c == '_' || c == '%'
		if !ok {
			return fmt.Errorf("ibmmq: %s name %q: character %q at offset %d is not allowed in an MQ name", what, name, c, i)
		}
	}
	return nil
}

package ibmmq

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
)

// withEnv completes FromEnv: IBM's MQ_CONNECT_TYPE and MQKEYRPWD, the
// secret files, and where each setting came from.
func (s Settings) withEnv(getenv func(string) string) Settings {
	s.Client = strings.EqualFold(getenv(EnvConnectType), "CLIENT")
	s.KeyRepoPassword = NewSecret(getenv(EnvKeyRepoPassword))
	s.SSLPeer = getenv(EnvSSLPeer)
	s.PasswordFile = getenv(EnvPasswordFile)
	s.TokenFile = getenv(EnvTokenFile)
	for key, env := range map[string]string{"qmgr": EnvQMgr, "channel": EnvChannel, "conn": EnvConnName,
		"cipher": EnvCipherSpec, "keyr": EnvKeyRepo, "certlabel": EnvCertLabel, "mqserver": EnvMQServer,
		"ccdt": EnvCCDTURL, "chllib": EnvChlLib, "chltab": EnvChlTab, "user": EnvUser, "password": EnvPassword,
		"client": EnvConnectType, "keyr-password": EnvKeyRepoPassword, "sslpeer": EnvSSLPeer,
		"password-file": EnvPasswordFile, "token-file": EnvTokenFile} {
		if getenv(env) != "" {
			s.note(key, "environment "+env)
		}
	}
	return s
}

// note records where setting key came from.
func (s *Settings) note(key, source string) {
	if s.Sources == nil {
		s.Sources = map[string]string{}
	}
	s.Sources[key] = source
}

// cloneSources gives a copy of the settings a map of its own.
func (s *Settings) cloneSources() { s.Sources = maps.Clone(s.Sources) }

// noted is a flag value that records that the flag set it.
type noted struct {
	dst  *string
	s    *Settings
	name string
}

func (n noted) String() string {
	if n.dst == nil {
		return ""
	}
	return *n.dst
}

func (n noted) Set(v string) error {
	*n.dst = v
	n.s.note(n.name, "flag --"+n.name)
	return nil
}

// notedBool is noted for a boolean flag.
type notedBool struct {
	dst  *bool
	s    *Settings
	name string
}

func (n notedBool) String() string   { return fmt.Sprint(n.dst != nil && *n.dst) }
func (n notedBool) IsBoolFlag() bool { return true }
func (n notedBool) Set(v string) error {
	switch v {
	case "true", "1":
		*n.dst = true
	case "false", "0":
		*n.dst = false
	default:
		return fmt.Errorf("want true or false")
	}
	n.s.note(n.name, "flag --"+n.name)
	return nil
}

// registerConnFlags adds the connection flags beyond the channel's; each
// records that it was given. The files hold secrets; their names do not.
func (s *Settings) registerConnFlags(fs *flag.FlagSet) {
	fs.Var(notedBool{&s.Client, s, "client"}, "client", "client mode without a channel given here: the MQ library reads mqclient.ini, MQCHLLIB/MQCHLTAB or the default CCDT (as MQ_CONNECT_TYPE=CLIENT)")
	fs.Var(noted{&s.SSLPeer, s, "sslpeer"}, "sslpeer", "TLS: distinguished name the queue manager's certificate must match (SSLPEER), e.g. CN=QM1,O=Example")
	fs.Var(noted{&s.KeyRepoPwFile, s, "keyr-password-file"}, "keyr-password-file", "TLS: file holding the key repository's password (for a .p12, or a .kdb without .sth; or set MQKEYRPWD); mode 0600")
	fs.Var(noted{&s.PasswordFile, s, "password-file"}, "password-file", "file holding MQ_USER's password, instead of the prompt; mode 0600")
	fs.Var(noted{&s.TokenFile, s, "token-file"}, "token-file", "file holding an authentication token for the queue manager (MQCSP token, IBM MQ 9.3.4+); mode 0600")
}

// readSecretFiles reads the password, token and key repository password
// files, each of which only its owner may read.
func (s *Settings) readSecretFiles() error {
	for _, f := range []struct {
		path, what string
		dst        *Secret
	}{{s.PasswordFile, "--password-file", &s.Password}, {s.TokenFile, "--token-file", &s.Token},
		{s.KeyRepoPwFile, "--keyr-password-file", &s.KeyRepoPassword}} {
		if f.path == "" {
			continue
		}
		v, err := ReadSecretFile(f.path)
		if err != nil {
			return fmt.Errorf("ibmmq: %s: %w", f.what, err)
		}
		*f.dst = NewSecret(v)
	}
	return nil
}

// ReadSecretFile reads a secret from a regular file that neither its group
// nor others may read (mode 0600 or 0400); one trailing newline is dropped.
func ReadSecretFile(path string) (string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("%s has mode %04o: others could read the secret; chmod 600 %s", path, perm, path)
	}
	if st.Size() > 64<<10 {
		return "", fmt.Errorf("%s is larger than 64 KB: not a password or token", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	v := strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r")
	if v == "" {
		return "", fmt.Errorf("%s is empty", path)
	}
	return v, nil
}

// HasConnectionSettings reports whether a --qmgrs entry gave anything
// beyond its name: what the embedded backend, connecting in this process,
// does not use.
func (s *Settings) HasConnectionSettings() bool {
	return s.Channel != "" || s.ConnName != "" || s.CipherSpec != "" || s.KeyRepository != "" ||
		s.CertLabel != "" || s.CCDTURL != "" || s.TimeZone != "" || s.SSLPeer != ""
}

// IsGroup reports whether the queue manager name is a queue-manager group
// (*NAME): the CCDT's channels for QMNAME(NAME) are tried and the name of
// the queue manager that answers is not checked.
func (s *Settings) IsGroup() bool { return strings.HasPrefix(s.QMgr, "*") }

func (s *Settings) validateQMgr() error {
	name := strings.TrimPrefix(s.QMgr, "*")
	if err := checkName("queue manager", name, 48); err != nil {
		return err
	}
	if s.IsGroup() && s.Mode() == ModeBindings {
		return fmt.Errorf("ibmmq: queue manager %q: a queue-manager group (*NAME) needs a client connection", s.QMgr)
	}
	return s.validateCredentials()
}

// validateCredentials checks what does not depend on the connection mode.
func (s *Settings) validateCredentials() error {
	if s.Token.IsSet() && (s.User != "" || s.Password.IsSet()) {
		return errors.New("ibmmq: --token-file and MQ_USER/password both authenticate: give one of them")
	}
	return nil
}

// keyRepoIsP12 reports a PKCS#12 key repository, which has no stash file.
func (s *Settings) keyRepoIsP12() bool {
	ext := strings.ToLower(filepath.Ext(s.KeyRepository))
	return ext == ".p12" || ext == ".pfx"
}

// mqscoKeyRepository is what MQSCO.KeyRepository is given. Clients before
// IBM MQ 9.3 take the stem of a CMS key database and append ".kdb"
// themselves (a NAME.kdb would be looked for as NAME.kdb.kdb: 2381); 9.3
// and later take a file name and assume .kdb without an extension. The stem
// works on both, so a name ending ".kdb" loses it; a .p12 (9.3 and later
// only) and a stem go as given.
func (s *Settings) mqscoKeyRepository() string {
	return strings.TrimSuffix(s.KeyRepository, ".kdb")
}

func (s *Settings) validateTLS() error {
	if s.KeyRepoPassword.IsSet() && s.KeyRepository == "" && s.Mode() == ModeBindings {
		return errors.New("ibmmq: a key repository password needs a client connection with --keyr or MQSSLKEYR")
	}
	if s.keyRepoIsP12() && !s.KeyRepoPassword.IsSet() && s.KeyRepoPasswordIni == "" {
		return fmt.Errorf("ibmmq: key repository %s is PKCS#12, which has no stash file: give its password in %s, --keyr-password-file or the SSL stanza's SSLKeyRepositoryPassword of mqclient.ini (IBM MQ 9.3 clients and later)",
			s.KeyRepository, EnvKeyRepoPassword)
	}
	return nil
}

// lookInClientIni notes the mqclient.ini whose SSL stanza gives the key
// repository's password, when a client connection names a key repository
// and no password is given here: the MQ library reads it from there.
func (s *Settings) lookInClientIni(getenv func(string) string) {
	s.KeyRepoPasswordIni = ""
	if s.Mode() != ModeBindings && s.KeyRepository != "" && !s.KeyRepoPassword.IsSet() {
		s.KeyRepoPasswordIni = clientIniKeyRepoPassword(getenv)
	}
}

// Principal is who the authorities are checked for before the queue
// manager says: MQ_USER when it authenticates (ADOPTCTX(YES) makes it the
// context), else the process's user.
func (s *Settings) Principal() string {
	if s.User != "" {
		return s.User
	}
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	return os.Getenv("USERNAME")
}

// Explain says how the connection was chosen and where each setting came
// from, one line each; exists tells whether a file is there (nil: not
// looked at). The password and token are never shown.
func (s *Settings) Explain(exists func(string) bool) []string {
	from := func(key, dflt string) string {
		if src, ok := s.Sources[key]; ok {
			return src
		}
		return dflt
	}
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	add("mode: %s, chosen by IBM's precedence: a channel given here, then MQSERVER, then MQCCDTURL, then MQCHLLIB/MQCHLTAB, then --client; else local bindings", s.Mode())
	qm := s.QMgr
	if qm == "" {
		qm = "(the default queue manager)"
	}
	add("queue manager: %s (%s)", qm, from("qmgr", "default"))
	switch s.Mode() {
	case ModeFlags:
		add("channel: %s (%s); conn: %s (%s)", s.Channel, from("channel", "?"), s.ConnName, from("conn", "?"))
	case ModeMQServer:
		add("MQSERVER: %s (%s)", s.MQServer, from("mqserver", "environment MQSERVER"))
	case ModeCCDTURL:
		add("CCDT: %s (%s)", s.CCDTURL, from("ccdt", "environment MQCCDTURL"))
	case ModeChlTab:
		add("CCDT: MQCHLLIB=%s MQCHLTAB=%s (environment)", s.ChlLib, s.ChlTab)
	case ModeClient:
		add("client mode (%s): the MQ library looks up the channel itself", from("client", "?"))
	}
	if s.Mode() != ModeBindings && exists != nil {
		out = append(out, clientIniLine(exists))
	}
	if s.KeyRepository != "" {
		add("TLS key repository: %s (%s)%s", s.KeyRepository, from("keyr", "?"), s.stashNote(exists))
	}
	if s.CipherSpec != "" {
		add("TLS CipherSpec: %s (%s)", s.CipherSpec, from("cipher", "?"))
	}
	if s.SSLPeer != "" {
		add("TLS SSLPEER: %s (%s)", s.SSLPeer, from("sslpeer", "?"))
	}
	switch {
	case s.Token.IsSet():
		add("authentication: token (%s)", from("token-file", "?"))
	case s.User != "":
		add("authentication: user %s (%s), password from %s", s.User, from("user", "?"), s.passwordSource())
	default:
		add("authentication: none sent (no MQ_USER): the queue manager sees this process's user, or the channel's MCAUSER")
	}
	return out
}

func (s *Settings) passwordSource() string {
	switch {
	case s.PasswordFile != "":
		return "--password-file " + s.PasswordFile
	case s.Sources["password"] != "":
		return s.Sources["password"]
	}
	return "the prompt"
}

// stashNote says whether a .kdb's stash file is there, or a .p12's password given.
func (s *Settings) stashNote(exists func(string) bool) string {
	switch {
	case s.KeyRepoPassword.IsSet() && s.keyRepoIsP12():
		return "; PKCS#12, password given"
	case s.KeyRepoPasswordIni != "":
		return "; password from " + s.KeyRepoPasswordIni + " (SSL stanza, SSLKeyRepositoryPassword)"
	case s.keyRepoIsP12():
		return "; PKCS#12 and no password: expect MQRC_KEY_REPOSITORY_ERROR (2381)"
	}
	if exists == nil {
		return ""
	}
	stem := strings.TrimSuffix(s.KeyRepository, filepath.Ext(s.KeyRepository))
	if strings.ToLower(filepath.Ext(s.KeyRepository)) != ".kdb" {
		stem = s.KeyRepository
	}
	switch {
	case s.KeyRepoPassword.IsSet():
		return "; password given"
	case exists(stem + ".sth"):
		return "; stash " + stem + ".sth found"
	}
	return "; no " + stem + ".sth stash and no password: expect MQRC_SSL_INITIALIZATION_ERROR (2393)"
}

// clientIniLine says which mqclient.ini the MQ library will read, in IBM's
// search order (clientIniPaths).
func clientIniLine(exists func(string) bool) string {
	if p := findClientIni(os.Getenv, exists); p != "" {
		return "mqclient.ini: " + p + " (its CHANNELS and SSL stanzas apply where nothing above overrides them)"
	}
	return "mqclient.ini: none found (MQCLNTCF, ./, /var/mqm/, ~/)"
}

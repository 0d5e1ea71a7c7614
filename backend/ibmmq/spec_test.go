package ibmmq

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func resolved(t *testing.T, vars map[string]string, args ...string) (Settings, error) {
	t.Helper()
	s := FromEnv(env(vars))
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	s.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return s, s.Resolve(nil)
}

func spec(t *testing.T, vars map[string]string, args ...string) ConnectSpec {
	t.Helper()
	s, err := resolved(t, vars, args...)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.ConnectSpec("poisonwatch")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func secretFile(t *testing.T, mode os.FileMode, v string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(p, []byte(v+"\n"), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConnectSpecMQServerIsAClientChannelWithoutReconnect(t *testing.T) {
	c := spec(t, map[string]string{EnvMQServer: "APP.SVRCONN/TCP/mq1(1414)"}, "-qmgr", "QM1")
	if c.Options != cnoHandleShareNoBlock|cnoClientBinding|cnoReconnectDisabled || c.Channel == nil ||
		c.Channel.ChannelName != "APP.SVRCONN" || c.Channel.ConnectionName != "mq1(1414)" || c.Channel.MaxMsgLength != maxMsgLength {
		t.Errorf("%+v %+v", c, c.Channel)
	}
}

func TestConnectSpecSSLPeerAndCertLabelOnTheChannel(t *testing.T) {
	c := spec(t, nil, "-channel", "C", "-conn", "h(1)", "-cipher", "TLS_AES_256_GCM_SHA384", "-sslpeer", "CN=QM1,O=Example",
		"-keyr", "/var/mqm/ssl/key", "-certlabel", "ibmwebspheremqapp")
	if c.Channel.SSLPeerName != "CN=QM1,O=Example" || c.Channel.SSLCipherSpec != "TLS_AES_256_GCM_SHA384" ||
		c.TLS == nil || c.TLS.KeyRepository != "/var/mqm/ssl/key" || c.TLS.CertificateLabel != "ibmwebspheremqapp" {
		t.Errorf("%+v %+v %+v", c, c.Channel, c.TLS)
	}
}

func TestConnectSpecClientModeLetsTheLibraryFindTheChannel(t *testing.T) {
	for _, vars := range []map[string]string{{EnvConnectType: "CLIENT"}, nil} {
		args := []string{"-qmgr", "QM1", "-keyr", "/k/key"}
		if vars == nil {
			args = append(args, "-client")
		}
		c := spec(t, vars, args...)
		if c.Options&cnoClientBinding == 0 || c.Options&cnoReconnectDisabled == 0 || c.Channel != nil || c.CCDTURL != "" ||
			c.TLS == nil || c.TLS.KeyRepository != "/k/key" {
			t.Errorf("%v: %+v", vars, c)
		}
	}
	if _, err := resolved(t, nil, "-keyr", "/k/key"); err == nil {
		t.Error("-keyr with local bindings accepted")
	}
}

func TestConnectSpecPKCS12NeedsItsPassword(t *testing.T) {
	if _, err := resolved(t, nil, "-client", "-keyr", "/k/app.p12"); err == nil || !strings.Contains(err.Error(), EnvKeyRepoPassword) {
		t.Errorf("p12 without password: %v", err)
	}
	c := spec(t, map[string]string{EnvKeyRepoPassword: "kpw"}, "-client", "-keyr", "/k/app.p12")
	if c.TLS.KeyRepoPassword.value() != "kpw" {
		t.Errorf("MQKEYRPWD not in MQSCO.KeyRepoPassword: %+v", c.TLS)
	}
	c = spec(t, nil, "-client", "-keyr", "/k/app.p12", "-keyr-password-file", secretFile(t, 0o600, "fromfile"))
	if c.TLS.KeyRepoPassword.value() != "fromfile" {
		t.Errorf("--keyr-password-file: %+v", c.TLS)
	}
}

func TestConnectSpecPasswordFileModeIsChecked(t *testing.T) {
	vars := map[string]string{EnvUser: "app1", EnvMQServer: "C/TCP/h(1)"}
	if _, err := resolved(t, vars, "-password-file", secretFile(t, 0o644, "pw")); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a world-readable password file: %v", err)
	}
	c := spec(t, vars, "-password-file", secretFile(t, 0o600, "pw"))
	if c.Auth == nil || c.Auth.AuthenticationType != cspAuthUserIDAndPassword || c.Auth.UserID != "app1" || c.Auth.Password.value() != "pw" {
		t.Errorf("%+v", c.Auth)
	}
}

func TestConnectSpecToken(t *testing.T) {
	c := spec(t, map[string]string{EnvMQServer: "C/TCP/h(1)"}, "-token-file", secretFile(t, 0o600, "eyJhbGciOi"))
	if c.Auth == nil || c.Auth.AuthenticationType != cspAuthIDToken || c.Auth.Token.value() != "eyJhbGciOi" || c.Auth.UserID != "" {
		t.Errorf("%+v", c.Auth)
	}
	if _, err := resolved(t, map[string]string{EnvMQServer: "C/TCP/h(1)", EnvUser: "u", EnvPassword: "p"}, "-token-file", secretFile(t, 0o600, "t")); err == nil {
		t.Error("token and user both accepted")
	}
}

func TestConnectSpecQueueManagerGroup(t *testing.T) {
	c := spec(t, map[string]string{EnvCCDTURL: "file:///etc/mq/ccdt.json"}, "-qmgr", "*PAYMENTS")
	if c.QMgrName != "*PAYMENTS" || c.CCDTURL != "file:///etc/mq/ccdt.json" {
		t.Errorf("%+v", c)
	}
	if _, err := resolved(t, nil, "-qmgr", "*PAYMENTS"); err == nil {
		t.Error("a group with local bindings accepted")
	}
}

func TestConnectOutcomeKeepsAWarningsHandle(t *testing.T) {
	if !ConnectOutcome(ccOK) || !ConnectOutcome(ccWarning) || ConnectOutcome(2) {
		t.Error("MQCC_WARNING (e.g. 2391) connects; only MQCC_FAILED has no handle")
	}
}

func TestQMgrFileEntryWinsOverGlobalChannel(t *testing.T) {
	base := FromEnv(env(map[string]string{EnvMQServer: "GLOBAL/TCP/g(1)"}))
	all, err := ParseQMgrFile([]byte(`[[qmgr]]
name = "QM1"
ccdt_url = "file:///ccdt.json"
[[qmgr]]
name = "QM2"
channel = "QM2.SVRCONN"
conn = "h2(1414)"
[[qmgr]]
name = "QM3"
`), base)
	if err != nil {
		t.Fatal(err)
	}
	if all[0].Mode() != ModeCCDTURL || all[1].Mode() != ModeFlags || all[1].Channel != "QM2.SVRCONN" || all[2].Mode() != ModeMQServer {
		t.Errorf("modes %v %v %v", all[0].Mode(), all[1].Mode(), all[2].Mode())
	}
	if all[1].Sources["channel"] != "--qmgrs entry QM2" || all[2].Sources["mqserver"] != "environment MQSERVER" {
		t.Errorf("sources %v %v", all[1].Sources, all[2].Sources)
	}
	if !strings.Contains(strings.Join(all[0].Explain(nil), "\n"), "CCDT: file:///ccdt.json (--qmgrs entry QM1)") {
		t.Errorf("explain: %q", all[0].Explain(nil))
	}
}

// IBM MQ sets a client process's TLS up once (the first MQCONNX's MQSCO;
// 2391 for a later one that differs): two key repositories in one file are
// refused, while TLS and plain channels to different queue managers are
// allowed, every client entry passing the same MQSCO.
func TestQMgrFileTLSPerProcess(t *testing.T) {
	const tlsA = "[[qmgr]]\nname=\"A\"\nchannel=\"C\"\nconn=\"h(1)\"\ncipher=\"TLS_AES_128_GCM_SHA256\"\nkey_repository=\"/k/a.kdb\"\n"
	all, err := ParseQMgrFile([]byte(tlsA+"[[qmgr]]\nname=\"B\"\nchannel=\"C\"\nconn=\"h(2)\"\n[[qmgr]]\nname=\"D\"\nccdt_url=\"file:///c.json\"\n"), Settings{})
	if err != nil {
		t.Fatalf("TLS and plain channels to different queue managers: %v", err)
	}
	for _, s := range all {
		c, err := s.ConnectSpec("poisonwatch")
		if err != nil || c.TLS == nil || c.TLS.KeyRepository != "/k/a" {
			t.Errorf("%s: MQSCO %+v (%v), want every client entry to pass /k/a", s.QMgr, c.TLS, err)
		}
	}
	if all[1].CipherSpec != "" || all[1].Sources["keyr"] != "--qmgrs entry A: one key repository per process" {
		t.Errorf("plain entry: cipher %q, keyr from %q", all[1].CipherSpec, all[1].Sources["keyr"])
	}
	same := tlsA + "[[qmgr]]\nname=\"B\"\nchannel=\"C\"\nconn=\"h(2)\"\ncipher=\"X\"\nkey_repository=\"/k/a\"\n"
	if _, err := ParseQMgrFile([]byte(same), Settings{}); err != nil {
		t.Errorf("/k/a.kdb and its stem /k/a are one key repository: %v", err)
	}
	two := tlsA + "[[qmgr]]\nname=\"B\"\nchannel=\"C\"\nconn=\"h(2)\"\ncipher=\"X\"\nkey_repository=\"/k/b\"\n"
	if _, err := ParseQMgrFile([]byte(two), Settings{}); err == nil || !strings.Contains(err.Error(), "once per process") {
		t.Errorf("two key repositories: %v", err)
	}
}

// TestExplainSaysWhereEachSettingCameFrom is the doctor's first check.
func TestExplainSaysWhereEachSettingCameFrom(t *testing.T) {
	s, err := resolved(t, map[string]string{EnvMQServer: "IGNORED/TCP/x(1)", EnvUser: "app1", EnvPassword: "s3cr3tPW"},
		"-qmgr", "QM1", "-channel", "APP.SVRCONN", "-conn", "mq1(1414)", "-cipher", "TLS_AES_128_GCM_SHA256", "-keyr", "/k/key")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Join(s.Explain(func(name string) bool { return name == "/k/key.sth" || name == "/var/mqm/mqclient.ini" }), "\n")
	for _, want := range []string{
		"mode: client (channel flags)",
		"queue manager: QM1 (flag --qmgr)",
		"channel: APP.SVRCONN (flag --channel); conn: mq1(1414) (flag --conn)",
		"mqclient.ini: /var/mqm/mqclient.ini",
		"TLS key repository: /k/key (flag --keyr); stash /k/key.sth found",
		"authentication: user app1 (environment MQ_USER), password from environment MQ_PASSWORD",
	} {
		if !strings.Contains(lines, want) {
			t.Errorf("lacks %q:\n%s", want, lines)
		}
	}
	if strings.Contains(lines, "s3cr3tPW") {
		t.Error("the password leaked")
	}
	s, _ = resolved(t, nil, "-client", "-keyr", "/k/nostash")
	if l := strings.Join(s.Explain(func(string) bool { return false }), "\n"); !strings.Contains(l, "no /k/nostash.sth stash") || !strings.Contains(l, "mqclient.ini: none found") {
		t.Errorf("missing stash not said:\n%s", l)
	}
}

// IBM MQ takes an authentication token only from a client (MQ 9.3.4+);
// over local bindings MQCONNX fails with MQRC_FUNCTION_NOT_SUPPORTED
// (2298; 9.4 says MQRC_CSP_ERROR, 2595). It is refused before MQCONNX,
// saying why and what to do.
func TestTokenNeedsAClientConnection(t *testing.T) {
	tok := secretFile(t, 0o600, "eyJhbGciOi")
	_, err := resolved(t, nil, "-qmgr", "QM1", "-token-file", tok)
	if err == nil || !strings.Contains(err.Error(), "client connection") || !strings.Contains(err.Error(), "2298") {
		t.Fatalf("token over local bindings: %v", err)
	}
	for _, vars := range []map[string]string{{EnvMQServer: "C/TCP/h(1)"}, {EnvConnectType: "CLIENT"}, {EnvCCDTURL: "file:///c.json"}} {
		if _, err := resolved(t, vars, "-qmgr", "QM1", "-token-file", tok); err != nil {
			t.Errorf("token as a client (%v): %v", vars, err)
		}
	}
}

// MQSCO.KeyRepository is the stem of a CMS key database on clients before
// IBM MQ 9.3 (they append .kdb themselves, so "key.kdb" would open
// key.kdb.kdb and fail with 2381); 9.3 and later take a file name and
// assume .kdb when there is no extension. The stem works on both, so a
// NAME.kdb given here is passed as NAME; a .p12 (9.3 and later only) is
// passed as given.
func TestConnectSpecPassesTheStemOfAKDB(t *testing.T) {
	for keyr, want := range map[string]string{
		"/etc/mq/ssl/key.kdb":     "/etc/mq/ssl/key",
		"/etc/mq/ssl/key":         "/etc/mq/ssl/key",
		"/etc/mq/ssl.kdb/key.kdb": "/etc/mq/ssl.kdb/key",
		"relative/app.kdb":        "relative/app",
	} {
		c := spec(t, nil, "-client", "-keyr", keyr)
		if c.TLS == nil || c.TLS.KeyRepository != want {
			t.Errorf("-keyr %s: MQSCO.KeyRepository %+v, want %q", keyr, c.TLS, want)
		}
	}
	c := spec(t, map[string]string{EnvKeyRepoPassword: "pw"}, "-client", "-keyr", "/etc/mq/ssl/app.p12")
	if c.TLS.KeyRepository != "/etc/mq/ssl/app.p12" {
		t.Errorf("a .p12 must keep its extension: %q", c.TLS.KeyRepository)
	}
}

// A --qmgrs file's entries start from the flags: a token (or -keyr) given
// there serves the entries that are client connections, although the flags
// alone name none. ResolveForFile leaves the connection checks to each
// entry's Resolve, which refuses the token for an entry in local bindings.
func TestTokenBesideAQMgrsFile(t *testing.T) {
	base := FromEnv(env(nil))
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	base.RegisterFlags(fs)
	if err := fs.Parse([]string{"-token-file", secretFile(t, 0o600, "eyJhbGciOi")}); err != nil {
		t.Fatal(err)
	}
	if err := base.ResolveForFile(nil); err != nil {
		t.Fatalf("flags beside a --qmgrs file: %v", err)
	}
	all, err := ParseQMgrFile([]byte("[[qmgr]]\nname=\"QM1\"\nchannel=\"C\"\nconn=\"h(1)\"\n[[qmgr]]\nname=\"QM2\"\n"), base)
	if err != nil {
		t.Fatal(err)
	}
	if err := all[0].Resolve(nil); err != nil || !all[0].Token.IsSet() {
		t.Errorf("client entry: %v (token set %v)", err, all[0].Token.IsSet())
	}
	if err := all[1].Resolve(nil); err == nil || !strings.Contains(err.Error(), "2298") {
		t.Errorf("local bindings entry with the token: %v", err)
	}
	both := FromEnv(env(map[string]string{EnvUser: "u", EnvPassword: "p"}))
	both.Token = NewSecret("t")
	if err := both.ResolveForFile(nil); err == nil {
		t.Error("a token and a user both accepted")
	}
}

package ibmmq

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestIniGivesKeyRepoPassword(t *testing.T) {
	for file, want := range map[string]bool{"with-password.ini": true, "password-elsewhere.ini": false} {
		f, err := os.Open(filepath.Join("testdata", "mqclient", file))
		if err != nil {
			t.Fatal(err)
		}
		if got := iniGivesKeyRepoPassword(f); got != want {
			t.Errorf("%s: %v, want %v", file, got, want)
		}
		f.Close()
	}
	if !iniGivesKeyRepoPassword(strings.NewReader("ssl:\nsslkeyrepositorypassword=x\n")) {
		t.Error("stanza and attribute names are not case-sensitive")
	}
}

// IBM's search order: MQCLNTCF (a file: URL or a path), the working
// directory, the MQ data directory, the home directory.
func TestClientIniPathsFollowIBMsOrder(t *testing.T) {
	got := clientIniPaths(env(map[string]string{EnvClientIni: "file:///etc/mq/client.ini"}), "/home/app")
	want := []string{"/etc/mq/client.ini", "mqclient.ini", "/var/mqm/mqclient.ini", "/home/app/mqclient.ini"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A .p12 has no stash: its password may come from the SSL stanza of the
// mqclient.ini the MQ library reads (SSLKeyRepositoryPassword, 9.3+), and
// then no password flag or MQKEYRPWD is needed.
func TestPKCS12PasswordFromClientIni(t *testing.T) {
	abs, err := filepath.Abs(filepath.Join("testdata", "mqclient", "with-password.ini"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvClientIni, abs)
	s, err := resolved(t, nil, "-client", "-keyr", "/etc/mq/ssl/app.p12")
	if err != nil {
		t.Fatalf("a .p12 whose password mqclient.ini gives: %v", err)
	}
	if s.KeyRepoPasswordIni != abs {
		t.Errorf("KeyRepoPasswordIni %q, want %q", s.KeyRepoPasswordIni, abs)
	}
	c, err := s.ConnectSpec("poisonwatch")
	if err != nil || c.TLS == nil || c.TLS.KeyRepository != "/etc/mq/ssl/app.p12" || c.TLS.KeyRepoPassword.IsSet() {
		t.Errorf("MQSCO %+v (%v): the library reads the password from mqclient.ini, none is passed", c.TLS, err)
	}
	if l := strings.Join(s.Explain(nil), "\n"); !strings.Contains(l, "password from "+abs) || strings.Contains(l, "not-a-real-password") {
		t.Errorf("explain:\n%s", l)
	}
	t.Setenv(EnvClientIni, filepath.Join("testdata", "mqclient", "password-elsewhere.ini"))
	if _, err := resolved(t, nil, "-client", "-keyr", "/etc/mq/ssl/app.p12"); err == nil || !strings.Contains(err.Error(), "SSLKeyRepositoryPassword") {
		t.Errorf("no password anywhere: %v", err)
	}
}

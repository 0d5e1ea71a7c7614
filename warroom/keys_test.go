package warroom

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

func pubLine(t *testing.T) (string, gossh.PublicKey) {
	t.Helper()
	k := newSigner(t).PublicKey()
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k))), k
}

func TestParseAuthorizedKeysRoles(t *testing.T) {
	a, ka := pubLine(t)
	b, kb := pubLine(t)
	c, kc := pubLine(t)
	d, kd := pubLine(t)
	data := "# the incident room\n\n" + a + " alice@laptop role=operator\n" + b + " bob@desk\n" + c + "\n" +
		`from="10.0.0.0/8,!10.1.2.3",expiry-time="20991231" ` + d + " dora role=viewer\n"
	ks, err := ParseAuthorizedKeys([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		key  gossh.PublicKey
		role Role
	}{{ka, Operator}, {kb, Viewer}, {kc, Viewer}, {kd, Viewer}}
	if len(ks) != len(want) {
		t.Fatalf("got %d keys, want %d", len(ks), len(want))
	}
	for i, w := range want {
		if string(ks[i].Key.Marshal()) != string(w.key.Marshal()) || ks[i].Role != w.role {
			t.Errorf("key %d: role %s, want %s", i, ks[i].Role, w.role)
		}
	}
}

func TestParseAuthorizedKeysRefusesUnknownRoleAndGarbage(t *testing.T) {
	a, _ := pubLine(t)
	for name, data := range map[string]string{
		"typo in role":             a + " alice role=operater\n",
		"not a key":                "ssh-ed25519 AAAAnot-base64!!\n",
		"two roles":                a + " bob role=operator role=viewer\n",
		"two roles, one an option": "role=viewer " + a + " bob role=operator\n",
		"command=":                 `command="/bin/sh" ` + a + " alice\n",
		"no-pty":                   "no-pty " + a + " alice\n",
		"restrict":                 "restrict " + a + " alice\n",
		"host name":                `from="*.example.com" ` + a + " alice\n",
		"bad expiry":               `expiry-time="tomorrow" ` + a + " alice\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseAuthorizedKeys([]byte(data))
			if err == nil || !strings.HasPrefix(err.Error(), "line 1: ") {
				t.Fatalf("err = %v, want an error naming line 1", err)
			}
		})
	}
}

func TestKeysLookupRefusesUnknownKey(t *testing.T) {
	a, ka := pubLine(t)
	_, stranger := pubLine(t)
	path := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(path, []byte(a+" alice role=operator\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err := LoadKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := keys.Lookup(ka); !ok || k.Role != Operator {
		t.Fatalf("alice's key: ok=%v role=%s", ok, k.Role)
	}
	if _, ok := keys.Lookup(stranger); ok {
		t.Fatal("an unknown key was accepted")
	}
}

func TestHostKeyCreatedOnceWithMode0600(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "host") // the state directory may not exist yet
	_, fp1, err := HostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("host key mode %v, want 0600", fi.Mode().Perm())
	}
	pemKey, fp2, err := HostKey(path)
	if err != nil {
		t.Fatal(err)
	}
	if fp1 != fp2 || !strings.HasPrefix(fp1, "SHA256:") {
		t.Fatalf("fingerprints %q then %q: the key must be kept", fp1, fp2)
	}
	signer, err := gossh.ParsePrivateKey(pemKey)
	if err != nil {
		t.Fatal(err)
	}
	if typ := signer.PublicKey().Type(); typ != gossh.KeyAlgoED25519 {
		t.Fatalf("host key type %s, want ed25519", typ)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := HostKey(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("a world-readable host key: err = %v", err)
	}
}

// OpenSSH options an owner wrote are honoured or refused, never ignored:
// an unsupported one names itself and its line.
func TestParseAuthorizedKeysNamesUnsupportedOption(t *testing.T) {
	a, _ := pubLine(t)
	_, err := ParseAuthorizedKeys([]byte(a + " alice\n" + `command="uptime",no-agent-forwarding ` + a + " bob\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "line 2: ") || !strings.Contains(err.Error(), `option "command"`) {
		t.Fatalf("err = %v, want line 2 naming command", err)
	}
}

func TestKeysCheckFromAndExpiry(t *testing.T) {
	a, ka := pubLine(t)
	b, kb := pubLine(t)
	c, kc := pubLine(t)
	data := `from="127.0.0.1,10.0.0.0/8,!10.9.9.9,192.168.1.?" ` + a + " alice role=operator\n" +
		`expiry-time="20000101" ` + b + " bob role=operator\n" +
		`expiry-time="20991231235959Z" ` + c + " carol\n"
	ks, err := ParseAuthorizedKeys([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	keys := Keys{}
	for _, k := range ks {
		keys[gossh.FingerprintSHA256(k.Key)] = k
	}
	addr := func(s string) net.Addr { return &net.TCPAddr{IP: net.ParseIP(s), Port: 40000} }
	now := time.Now()
	for _, tc := range []struct {
		key  gossh.PublicKey
		from string
		ok   bool
	}{
		{ka, "127.0.0.1", true}, {ka, "10.2.3.4", true}, {ka, "192.168.1.7", true},
		{ka, "10.9.9.9", false}, {ka, "192.168.1.17", false}, {ka, "172.16.0.1", false},
		{kb, "127.0.0.1", false}, // expired in 2000
		{kc, "172.16.0.1", true},
	} {
		_, err := keys.Check(tc.key, gossh.FingerprintSHA256(tc.key), addr(tc.from), now)
		if (err == nil) != tc.ok {
			t.Errorf("key line from %s: err = %v, want ok=%v", tc.from, err, tc.ok)
		}
	}
}

func TestLoadKeysRefusesWritableByOthers(t *testing.T) {
	a, _ := pubLine(t)
	path := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(path, []byte(a+" alice role=operator\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadKeys(path); err == nil || !strings.Contains(err.Error(), "chmod go-w") {
		t.Fatalf("a world-writable authorized keys file: err = %v", err)
	}
}

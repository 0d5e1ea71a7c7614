package warroom

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		`no-pty,command="x" ` + d + " dora role=viewer\n"
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
		"typo in role": a + " alice role=operater\n",
		"not a key":    "ssh-ed25519 AAAAnot-base64!!\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseAuthorizedKeys([]byte(data))
			if err == nil || !strings.Contains(err.Error(), "line 1") {
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

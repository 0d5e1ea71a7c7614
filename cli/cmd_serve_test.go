package cli

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// serve's own numbers out of range and authorized keys that would be
// ignored or are writable by others are usage errors before anything
// listens.
func TestServeRefusesBadFlagsAndKeys(t *testing.T) {
	dir := t.TempDir()
	key := clientKey(t, filepath.Join(dir, "k"), "alice")
	write := func(name, data string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", key+" role=operator\n", 0o600)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"max_sessions_negative", []string{"--authorized-keys", good, "--max-sessions", "-1"}, "--max-sessions -1"},
		{"idle_negative", []string{"--authorized-keys", good, "--idle-timeout", "-1s"}, "--idle-timeout -1s"},
		{"max_time_negative", []string{"--authorized-keys", good, "--max-time", "-1h"}, "--max-time -1h0m0s"},
		{"command_option", []string{"--authorized-keys", write("cmd", "# team\n"+`command="/bin/sh" `+key+"\n", 0o600)}, `line 2: option "command"`},
		{"restrict_option", []string{"--authorized-keys", write("restrict", "restrict "+key+"\n", 0o600)}, `line 1: option "restrict"`},
		{"two_roles", []string{"--authorized-keys", write("roles", key+" role=operator role=viewer\n", 0o600)}, "one key, one role"},
		{"world_writable", []string{"--authorized-keys", write("ww", key+"\n", 0o666)}, "lets others write it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"serve", "--listen", "127.0.0.1:0", "--host-key", filepath.Join(dir, "host")}, tc.args...)
			_, errOut, code := runCLI(args...)
			if code != ExitUsage || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stderr %q; want %d mentioning %q", code, errOut, ExitUsage, tc.want)
			}
		})
	}
}

// clientKey (as the end-to-end tests at the root make one) writes a new ed25519 private key for ssh -i and returns its
// authorized_keys line with comment.
func clientKey(t *testing.T, path, comment string) string {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(priv, comment)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	k, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k))) + " " + comment
}

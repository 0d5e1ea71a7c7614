package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/internal/sshkey"
)

// serve's own numbers out of range and authorized keys that would be
// ignored or are writable by others are usage errors before anything
// listens.
func TestServeRefusesBadFlagsAndKeys(t *testing.T) {
	dir := t.TempDir()
	key := sshkey.Client(t, filepath.Join(dir, "k"), "alice")
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

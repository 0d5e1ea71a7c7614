package ibmmq

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The IBM MQ client configuration file (mqclient.ini) is read by the MQ
// library, not here; poisonwatch only finds the one the library will read,
// for the doctor, and looks whether its SSL stanza gives the key
// repository's password (SSLKeyRepositoryPassword, IBM MQ 9.3 and later),
// so that a .p12 needs no password file. The password itself is never kept.

// EnvClientIni is IBM's MQCLNTCF: the client configuration file, as a URL
// (file: is the only protocol a C client supports, and is assumed).
const EnvClientIni = "MQCLNTCF"

// clientIniPaths is IBM's search order for mqclient.ini on AIX and Linux:
// MQCLNTCF, the working directory, the MQ data directory (/var/mqm), then
// the user's home directory.
func clientIniPaths(getenv func(string) string, home string) []string {
	var out []string
	if v := getenv(EnvClientIni); v != "" {
		v = strings.TrimPrefix(strings.TrimPrefix(v, "file://"), "file:")
		out = append(out, v)
	}
	out = append(out, "mqclient.ini", "/var/mqm/mqclient.ini")
	if home != "" {
		out = append(out, filepath.Join(home, "mqclient.ini"))
	}
	return out
}

// findClientIni returns the first of clientIniPaths that exists, or "".
func findClientIni(getenv func(string) string, exists func(string) bool) string {
	home, _ := os.UserHomeDir()
	for _, p := range clientIniPaths(getenv, home) {
		if exists(p) {
			return p
		}
	}
	return ""
}

// iniGivesKeyRepoPassword reports whether a client configuration file's
// SSL stanza sets SSLKeyRepositoryPassword to something. Stanza and
// attribute names are matched without regard to case; lines starting with
// # or ; are comments.
func iniGivesKeyRepoPassword(r io.Reader) bool {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	inSSL := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#' || line[0] == ';':
			continue
		case strings.HasSuffix(line, ":") && !strings.Contains(line, "="):
			inSSL = strings.EqualFold(strings.TrimSpace(strings.TrimSuffix(line, ":")), "SSL")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if inSSL && ok && strings.EqualFold(strings.TrimSpace(k), "SSLKeyRepositoryPassword") && strings.TrimSpace(v) != "" {
			return true
		}
	}
	return false
}

// clientIniKeyRepoPassword returns the mqclient.ini the MQ library will
// read when its SSL stanza gives the key repository's password, else "".
func clientIniKeyRepoPassword(getenv func(string) string) string {
	path := findClientIni(getenv, func(p string) bool { st, err := os.Stat(p); return err == nil && st.Mode().IsRegular() })
	if path == "" {
		return ""
	}
	data, err := readLimited(path, 1<<20)
	if err != nil || !iniGivesKeyRepoPassword(bytes.NewReader(data)) {
		return ""
	}
	return path
}

// readLimited reads at most limit bytes of a file.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit))
}

package warroom

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// AuthorizedKey is one key allowed in, with the role its comment gives.
type AuthorizedKey struct {
	Key     gossh.PublicKey
	Comment string
	Role    Role
	Line    int       // in the file, for messages
	From    []string  // from= address patterns; none: any address
	Expires time.Time // expiry-time=; zero: never
}

// ParseAuthorizedKeys reads an OpenSSH authorized_keys file. A key's role is
// the role= word of its comment ("alice@laptop role=operator"); a key
// without one is a viewer. An unknown role, two different roles, and any
// option but from=, expiry-time= and role= are errors naming the line, so
// a typo never makes anyone an operator or locks them out silently, and no
// restriction the owner wrote is ignored.
func ParseAuthorizedKeys(data []byte) ([]AuthorizedKey, error) {
	var out []AuthorizedKey
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		k, comment, opts, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		ko, err := parseKeyOptions(comment, opts)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		out = append(out, AuthorizedKey{Key: k, Comment: comment, Role: ko.role, Line: n + 1, From: ko.from, Expires: ko.expires})
	}
	return out, nil
}

// Keys is the set of authorized keys, by fingerprint.
type Keys map[string]AuthorizedKey

// maxKeysFile bounds the authorized keys file: thousands of keys.
const maxKeysFile = 4 << 20

// LoadKeys reads the authorized keys file. A file others may write is
// refused, as OpenSSH's StrictModes does: whoever can write it can log in.
func LoadKeys(path string) (Keys, error) {
	data, err := safeload.ReadFile(path, maxKeysFile)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o022 != 0 {
		return nil, fmt.Errorf("%s: mode %v lets others write it, and so log in as anyone: chmod go-w %s", path, fi.Mode().Perm(), path)
	}
	ks, err := ParseAuthorizedKeys(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(ks) == 0 {
		return nil, fmt.Errorf("%s: no keys: nobody could log in", path)
	}
	out := Keys{}
	for _, k := range ks {
		out[gossh.FingerprintSHA256(k.Key)] = k
	}
	return out, nil
}

// Lookup finds the key a client offered; ok is false for an unknown key.
func (k Keys) Lookup(key gossh.PublicKey) (AuthorizedKey, bool) {
	a, ok := k[gossh.FingerprintSHA256(key)]
	if !ok || !bytes.Equal(a.Key.Marshal(), key.Marshal()) {
		return AuthorizedKey{}, false
	}
	return a, true
}

// HostKey reads the server's private key from path, creating an ed25519 key
// (mode 0600) when the file does not exist. It returns the key in PEM and
// its fingerprint, printed at start so clients can check what they are
// asked to trust.
func HostKey(path string) (pemBytes []byte, fingerprint string, err error) {
	pemBytes, err = os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		pemBytes, err = newHostKey(path)
	}
	if err != nil {
		return nil, "", err
	}
	signer, err := gossh.ParsePrivateKey(pemBytes)
	if err != nil {
		return nil, "", fmt.Errorf("host key %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		return nil, "", fmt.Errorf("host key %s: mode %v lets others read it; chmod 600 %s", path, fi.Mode().Perm(), path)
	}
	return pemBytes, gossh.FingerprintSHA256(signer.PublicKey()), nil
}

func newHostKey(path string) ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "poisonwatch serve host key")
	if err != nil {
		return nil, err
	}
	data := pem.EncodeToMemory(block)
	// A new file only: two servers starting at once never overwrite each
	// other's key.
	f, err := safeload.CreatePrivate(path)
	if err != nil {
		return nil, fmt.Errorf("host key: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, fmt.Errorf("host key %s: %w", path, err)
	}
	return data, f.Close()
}

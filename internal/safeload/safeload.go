// Package safeload reads configuration files that may come from someone else
// (scenarios, themes, queue manager lists) with bounded memory and time: a
// size cap, regular files only, and TOML checked for nesting depth and key
// count before the decoder sees it.
package safeload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/BurntSushi/toml"
)

// Limits bound a TOML document. The zero value of a field means its default.
type Limits struct {
	MaxBytes int64 // size of the file; default 1 MiB
	MaxDepth int   // nesting of inline tables and arrays; default 16
	MaxKeys  int   // key/value pairs and table headers; default 10000
}

// Defaults for Limits.
const (
	DefaultMaxBytes = 1 << 20
	DefaultMaxDepth = 16
	DefaultMaxKeys  = 10000
	// MaxListedKeys is how many unknown keys an error names before "and N more".
	MaxListedKeys = 5
)

func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultMaxDepth
	}
	if l.MaxKeys <= 0 {
		l.MaxKeys = DefaultMaxKeys
	}
	return l
}

// ErrTooLarge is wrapped by the errors of files over a limit.
var ErrTooLarge = errors.New("over the limit")

// ReadFile reads path, which must be a regular file (not a device, FIFO or
// directory, which could be endless or block), of at most limit bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%s: %d bytes, larger than the %d-byte limit: %w", path, st.Size(), limit, ErrTooLarge)
	}
	// A buffer of the file's size: io.ReadAll's doubling would hold up to
	// twice a large file (decode reads messages of hundreds of MB).
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than the %d-byte limit: %w", path, limit, ErrTooLarge)
	}
	return data, nil
}

// DecodeTOML checks data against lim, then decodes it into v. Keys v does not
// have are an error naming at most MaxListedKeys of them.
func DecodeTOML(data []byte, v any, lim Limits) error {
	lim = lim.withDefaults()
	if int64(len(data)) > lim.MaxBytes {
		return fmt.Errorf("%d bytes, larger than the %d-byte limit: %w", len(data), lim.MaxBytes, ErrTooLarge)
	}
	if err := CheckTOML(data, lim); err != nil {
		return err
	}
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(v)
	if err != nil {
		return err
	}
	if und := md.Undecoded(); len(und) > 0 {
		return UnknownKeys(und)
	}
	return nil
}

// UnknownKeys is the error for keys a file should not have, naming the first
// MaxListedKeys.
func UnknownKeys(keys []toml.Key) error {
	names := make([]string, 0, MaxListedKeys)
	for _, k := range keys[:min(len(keys), MaxListedKeys)] {
		names = append(names, fmt.Sprintf("%q", clip(k.String(), 64)))
	}
	more := ""
	if n := len(keys) - MaxListedKeys; n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	word := "key"
	if len(keys) > 1 {
		word = "keys"
	}
	return fmt.Errorf("unknown %s %s%s", word, strings.Join(names, ", "), more)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

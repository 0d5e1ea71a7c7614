package ops

// The audit log is a chain: each line carries, as "prev", a hash of the
// line before it in the file (of "" for the first), so `audit check`
// finds a line removed, inserted or changed anywhere but at the end. The
// hash has no key: someone who can write the file can rewrite the chain
// from the line they change to the end, and lines appended at the end or
// the last lines removed leave a chain that holds. It proves the log is as
// poisonwatch wrote it against damage and a careless edit, not against a
// determined writer (docs/security.md says so).
//
// Lines are chained as they are written, under an exclusive lock on the
// file (flock, where there is one) around reading the last line and
// appending, so runs, fixes and processes appending at once keep one
// chain. A log written before lines were chained keeps its old lines as
// they are; the chain starts at the first new line, which follows the last
// old one.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
)

// auditHashLen is how many bytes of SHA-256 a line carries of the one
// before it: 128 bits, as hex.
const auditHashLen = 16

// auditLineHash is the hash a line carries of line (its bytes without the
// newline, trimmed as ReadAudit trims them).
func auditLineHash(line []byte) string {
	sum := sha256.Sum256(bytes.TrimSpace(line))
	return hex.EncodeToString(sum[:auditHashLen])
}

// chainLines returns buf's lines (each a JSON object ending in a newline,
// as the encoder writes them) with "prev" set: the first to prev, each
// next to the hash of the one before.
func chainLines(buf []byte, prev string) []byte {
	out := make([]byte, 0, len(buf)+bytes.Count(buf, []byte{'\n'})*(len(`"prev":"",`)+2*auditHashLen))
	for len(buf) > 0 {
		line, rest, _ := bytes.Cut(buf, []byte{'\n'})
		buf = rest
		start := len(out)
		out = append(out, `{"prev":"`...)
		out = append(out, prev...)
		out = append(out, `",`...)
		out = append(out, line[1:]...) // after the object's '{'
		prev = auditLineHash(out[start:])
		out = append(out, '\n')
	}
	return out
}

// lastLineHash is the hash of the last line of f: what the next line
// written carries. An empty file gives the hash of "".
func lastLineHash(f *os.File) (string, error) {
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	end := fi.Size()
	for end > 0 { // past the newlines (and blank lines) the file ends with
		var b [1]byte
		if _, err := f.ReadAt(b[:], end-1); err != nil {
			return "", err
		}
		if b[0] != '\n' && b[0] != '\r' && b[0] != ' ' && b[0] != '\t' {
			break
		}
		end--
	}
	start := max(end-maxAuditLine, 0)
	tail := make([]byte, end-start)
	if _, err := f.ReadAt(tail, start); err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	// A last line longer than a line can be is damage audit check reports
	// as such; the chain goes on from its last bytes.
	if i := bytes.LastIndexByte(tail, '\n'); i >= 0 {
		tail = tail[i+1:]
	}
	return auditLineHash(tail), nil
}

// writeChained appends buf's lines to the log, chained to its last line.
func (a *opAudit) writeChained(buf []byte) error {
	unlock, err := lockFile(a.f)
	if err != nil {
		return err
	}
	defer unlock()
	prev, err := lastLineHash(a.f)
	if err != nil {
		return err
	}
	_, err = a.f.Write(chainLines(buf, prev))
	return err
}

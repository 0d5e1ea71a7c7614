package ops

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// readImportFile reads a dmpmqmsg file message by message, calling fn with
// each one's 1-based position, and returns the file's SHA-256. fn returning
// false stops the calls, not the reading (the hash needs the whole file).
//
// A file cut short is refused before fn sees its last message: the format
// declares no message length, so the last message is checked against what
// its own headers declare (an MQDLH or MQRFH2 longer than the data left),
// and the file must end with a whole line.
func readImportFile(path string, fn func(i int, m *mqfmt.QLoadMessage) bool) (string, error) {
	f, err := safeload.Open(path)
	if err != nil {
		return "", fmt.Errorf("import file: %w", err)
	}
	defer f.Close()
	h := &tailHash{Hash: sha256.New()}
	qr := mqfmt.NewQLoadReader(io.TeeReader(f, h), mqfmt.QLoadReaderOptions{})
	calling := true
	var held *mqfmt.QLoadMessage // the message read last, given to fn once another follows
	i := 0
	for {
		m, err := qr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("import file %s: %w", path, err)
		}
		if m.Partial() {
			return "", fmt.Errorf("import file %s: message %d is cut short (%d of %d bytes): it cannot be restored whole", path, i+1, len(m.Data), m.DumpLength)
		}
		if held != nil && calling {
			calling = fn(i, held)
		}
		i++
		held = &m
	}
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("import file %s: %w", path, err)
	}
	if held != nil {
		if err := cutShort(held, h.last); err != nil {
			return "", fmt.Errorf("import file %s: message %d %w: the file was cut; nothing of a cut file is imported", path, i, err)
		}
		if calling {
			fn(i, held)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// cutShort says how the last message of a file shows the file was cut.
func cutShort(m *mqfmt.QLoadMessage, lastByte byte) error {
	if lastByte != '\n' {
		return errors.New("ends inside a line")
	}
	_, err := mqfmt.WalkChain(m.MD.Format, mqfmt.Encoding(m.MD.Encoding), m.MD.CodedCharSetId, m.Data)
	var de *mqfmt.DecodeError
	if errors.Is(err, mqfmt.ErrTruncated) && errors.As(err, &de) {
		return fmt.Errorf("is shorter than its headers declare (%s at byte %d: %s)", de.Struct, de.Offset, de.Msg)
	}
	return nil
}

// tailHash hashes what passes and remembers its last byte.
type tailHash struct {
	hash.Hash
	last byte
}

func (t *tailHash) Write(p []byte) (int, error) {
	if len(p) > 0 {
		t.last = p[len(p)-1]
	}
	return t.Hash.Write(p)
}

// importSelection selects the messages of an import file and marks those an
// earlier import of the same file (by content) already put, according to the
// audit log, so that an import run again after an interruption does not put
// a message twice. Those count not toward the limit, so running the same
// import again after one cut at the limit goes on where it stopped; the
// plan says how many more than the limit the file holds.
func (e *Engine) importSelection(p *opPlanned, req *OpRequest, now time.Time) ([]selected, bool, error) {
	sha, err := fileSHA256(req.File)
	if err != nil {
		return nil, false, err
	}
	done, err := importedBefore(e.opts.AuditPath, sha)
	if err != nil {
		return nil, false, err
	}
	want := map[msgIdentity]bool{}
	for i := range req.Messages {
		want[identityOf(&req.Messages[i])] = true
	}
	var out []selected
	counted, left := 0, 0
	sha2, err := readImportFile(req.File, func(i int, m *mqfmt.QLoadMessage) bool {
		msg := mqwatch.Message{MD: m.MD, Data: m.Data, Length: len(m.Data)}
		s := mqwatch.Summarize(&msg)
		if len(want) > 0 && !want[identityOf(&s)] {
			return true
		}
		if !req.Filter.matches(&s, bodyOf(&msg, &s), now) {
			return true
		}
		if done[i].why != "" {
			out = append(out, selected{sum: &s, index: i, imported: done[i]})
			return true
		}
		if counted == req.Limit {
			left++
			return true
		}
		counted++
		out = append(out, selected{sum: &s, index: i})
		return true
	})
	if err != nil {
		return nil, false, err
	}
	if sha2 != sha {
		return nil, false, fmt.Errorf("import file %s changed while it was read", req.File)
	}
	p.fileSHA = sha
	p.MoreCount = left
	return out, left > 0, nil
}

// fileSHA256 is the SHA-256 of a file's content, read without blocking.
func fileSHA256(path string) (string, error) {
	f, err := safeload.Open(path)
	if err != nil {
		return "", fmt.Errorf("import file: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("import file %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// runImport puts the planned messages of the file onto the target in
// syncpoint batches, with the MsgId and context the file gives.
func (r *opRun) runImport(ctx context.Context, ctrl *opSession) {
	byIndex := map[int]int{}
	for i := range r.items {
		if r.items[i].planned() {
			byIndex[r.items[i].Index] = i
		}
	}
	if len(byIndex) == 0 {
		return
	}
	if err := r.preflight(ctx, ctrl.conn); err != nil {
		r.setStop("nothing imported: "+err.Error(), err)
		return
	}
	b := newPutBatch(r, ctrl.conn)
	defer b.close(ctx)
	tg := r.p.res.override
	sha, err := readImportFile(r.req.File, func(i int, m *mqfmt.QLoadMessage) bool {
		idx, ok := byIndex[i]
		if !ok {
			return true
		}
		if identityOfMD(&m.MD) != r.p.ids[idx] {
			r.setStop(fmt.Sprintf("import file %s changed since the plan (message %d differs)", r.req.File, i), nil)
			return false
		}
		md := m.MD
		return b.add(ctx, opPut{idx: idx, md: md, data: m.Data, target: tg, defaultCtx: !m.HasMQMD})
	})
	if err != nil {
		r.setStop(err.Error(), err)
		b.backout(ctx)
		return
	}
	if sha != r.p.fileSHA && !r.stopping() {
		// Read in full and unchanged message by message, but different
		// elsewhere: still what the plan showed for every message put.
		r.setStop(fmt.Sprintf("import file %s changed while it was read", r.req.File), nil)
	}
	b.flush(ctx)
}

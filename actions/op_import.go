package actions

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// readImportFile reads a dmpmqmsg file message by message, calling fn with
// each one's 1-based position, and returns the file's SHA-256. fn returning
// false stops the calls, not the reading (the hash needs the whole file).
func readImportFile(path string, fn func(i int, m *mqfmt.QLoadMessage) bool) (string, error) {
	f, err := safeload.Open(path)
	if err != nil {
		return "", fmt.Errorf("import file: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	qr := mqfmt.NewQLoadReader(io.TeeReader(f, h), mqfmt.QLoadReaderOptions{})
	calling := true
	for i := 1; ; i++ {
		m, err := qr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("import file %s: %w", path, err)
		}
		if m.Partial() {
			return "", fmt.Errorf("import file %s: message %d is cut short (%d of %d bytes): it cannot be restored whole", path, i, len(m.Data), m.DumpLength)
		}
		if calling {
			calling = fn(i, &m)
		}
	}
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("import file %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// importSelection selects the messages of an import file and marks those an
// earlier import of the same file (by content) already put, according to the
// audit log, so that an import run again after an interruption does not put
// a message twice.
func (e *Engine) importSelection(p *opPlanned, req *OpRequest, now time.Time) ([]selected, bool, error) {
	want := map[msgIdentity]bool{}
	for i := range req.Messages {
		want[identityOf(&req.Messages[i])] = true
	}
	var out []selected
	more := false
	sha, err := readImportFile(req.File, func(i int, m *mqfmt.QLoadMessage) bool {
		msg := mqwatch.Message{MD: m.MD, Data: m.Data, Length: len(m.Data)}
		s := mqwatch.Summarize(&msg)
		if len(want) > 0 && !want[identityOf(&s)] {
			return true
		}
		if !req.Filter.matches(&s, bodyOf(&msg, &s), now) {
			return true
		}
		if len(out) == req.Limit {
			more = true
			return false
		}
		out = append(out, selected{sum: s, index: i})
		return true
	})
	if err != nil {
		return nil, false, err
	}
	p.fileSHA = sha
	done, err := importedBefore(e.opts.AuditPath, sha)
	if err != nil {
		return nil, false, err
	}
	for i := range out {
		out[i].imported = done[out[i].index]
	}
	return out, more, nil
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

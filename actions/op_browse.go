package actions

import (
	"context"
	"fmt"
	"os"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// Fetch browses the exact message a summary stands for (MsgId, CorrelId and
// put time), whole, for the message screen. It never removes or changes it.
// A message that is no longer there fails with MQRC_NO_MSG_AVAILABLE.
func (e *Engine) Fetch(ctx context.Context, queue string, s mqwatch.Summary) (mqwatch.Message, error) {
	sess, err := e.connect(ctx)
	if err != nil {
		return mqwatch.Message{}, fmt.Errorf("fetch from %s: %w", queue, err)
	}
	defer sess.close()
	q, err := sess.conn.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		return mqwatch.Message{}, fmt.Errorf("fetch from %s: %w", queue, err)
	}
	defer q.Close(context.WithoutCancel(ctx))
	want := identityOf(&s)
	sc := newScanner(q, 0)
	for {
		m, ok, err := sc.next(ctx)
		if err != nil {
			return m, fmt.Errorf("fetch from %s: %w", queue, err)
		}
		if !ok {
			return m, fmt.Errorf("fetch from %s: %w", queue, mqwatch.NewError("MQGET", queue, mqfmt.RCNoMsgAvailable))
		}
		if identityOfMD(&m.MD) == want {
			return m, nil
		}
	}
}

// opWanted maps the identities of planned messages to their item indices (a
// queue can hold several messages with one identity; each is taken once).
type opWanted map[msgIdentity][]int

func (r *opRun) wanted() (opWanted, int) {
	w := opWanted{}
	n := 0
	for i := range r.items {
		if r.items[i].planned() {
			id := r.p.ids[i]
			w[id] = append(w[id], i)
			n++
		}
	}
	return w, n
}

// take returns the next item wanted for a browsed message.
func (w opWanted) take(id msgIdentity) (int, bool) {
	l := w[id]
	if len(l) == 0 {
		return 0, false
	}
	w[id] = l[1:]
	return l[0], true
}

// browseWanted walks the source once and calls fn for each message planned,
// until all were found or fn returns false; what was not found is reported
// gone.
func (r *opRun) browseWanted(ctx context.Context, conn mqwatch.Conn, fn func(idx int, m *mqwatch.Message) bool) {
	want, n := r.wanted()
	if n == 0 {
		return
	}
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: r.req.Queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		r.setStop(fmt.Sprintf("open %s: %v", r.req.Queue, err), err)
		return
	}
	defer q.Close(context.WithoutCancel(ctx))
	sc := newScanner(q, 0)
	for n > 0 && !r.stopping() {
		m, ok, err := sc.next(ctx)
		if err != nil {
			r.stopFor("browse "+r.req.Queue, err)
			return
		}
		if !ok {
			break
		}
		idx, hit := want.take(identityOfMD(&m.MD))
		if !hit {
			continue
		}
		n--
		if !fn(idx, &m) {
			return
		}
	}
	if r.stopping() {
		return
	}
	for _, l := range want {
		for _, idx := range l {
			r.record([]int{idx}, kSkipped, "skipped: gone, someone else removed it meanwhile (MQRC_NO_MSG_AVAILABLE)", mqfmt.RCNoMsgAvailable, nil)
		}
	}
}

// runReplay puts copies of the planned messages (R10e): browsed, never got,
// so the originals stay where they are, untouched.
func (r *opRun) runReplay(ctx context.Context, ctrl *opSession) {
	if err := r.preflight(ctx, ctrl.conn); err != nil {
		r.setStop("nothing replayed: "+err.Error(), err)
		return
	}
	b := newPutBatch(r, ctrl.conn)
	defer b.close(ctx)
	r.browseWanted(ctx, ctrl.conn, func(idx int, m *mqwatch.Message) bool {
		md, data, tg, skip := r.transform(m)
		if skip != "" {
			r.record([]int{idx}, kSkipped, "skipped: "+skip, 0, nil)
			return true
		}
		return b.add(ctx, opPut{idx: idx, md: md, data: data, target: tg})
	})
	b.flush(ctx)
}

// runExport writes the planned messages to a new dmpmqmsg file, browsing:
// the queue does not change.
func (r *opRun) runExport(ctx context.Context, ctrl *opSession) {
	f, err := createPrivate(r.req.File)
	if err != nil {
		r.setStop("nothing exported: "+err.Error(), err)
		return
	}
	qw, err := mqfmt.NewQLoadWriter(f, mqfmt.QLoadWriterOptions{QMgr: r.p.qmName, Queue: r.req.Queue, Now: r.e.opts.Now})
	if err != nil {
		_ = f.Close()
		r.setStop("nothing exported: "+err.Error(), err)
		return
	}
	var written []int
	flush := func() bool {
		if err := qw.Flush(); err != nil {
			r.setStop("export file "+r.req.File+": "+err.Error(), err)
			return false
		}
		r.record(written, kDone, "exported", 0, nil)
		written = written[:0]
		return true
	}
	r.browseWanted(ctx, ctrl.conn, func(idx int, m *mqwatch.Message) bool {
		if err := r.lim.wait(ctx); err != nil {
			r.setStop("cancelled", err)
			return false
		}
		if err := qw.Write(mqfmt.QLoadMessage{MD: m.MD, HasMQMD: true, Data: m.Data}); err != nil {
			r.record([]int{idx}, kFailed, "failed: cannot be written to a dmpmqmsg file: "+err.Error(), 0, nil)
			return true
		}
		written = append(written, idx)
		return len(written) < r.req.Batch || flush()
	})
	flush()
	if err := syncClose(f); err != nil {
		r.setStop("export file "+r.req.File+": "+err.Error(), err)
	}
}

func syncClose(f *os.File) error {
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

package ops

import (
	"context"
	"fmt"
	"os"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Fetch browses the exact message a summary stands for (MsgId, CorrelId, put
// time, group position, and among twins the first whose body starts as
// shown), whole, for the message screen. It never removes or changes it.
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
	m, ok, err := browseExact(ctx, q, &s, 0, 0)
	if err == nil && !ok {
		err = mqwatch.NewError("MQGET", queue, mqfmt.RCNoMsgAvailable)
	}
	if err != nil {
		return m, fmt.Errorf("fetch from %s: %w", queue, err)
	}
	return m, nil
}

// browseWanted finds each planned message by its identity (the nth of
// several identical ones for the nth such item, identity.go) and calls fn with it, in plan
// order, until fn returns false; what is no longer there is reported gone.
func (r *opRun) browseWanted(ctx context.Context, conn mqwatch.Conn, fn func(idx int, m *mqwatch.Message) bool) {
	q, err := conn.Open(ctx, mqwatch.ObjectDesc{Name: r.req.Queue}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		r.setStop(fmt.Sprintf("open %s: %v", r.req.Queue, err), err)
		return
	}
	defer q.Close(context.WithoutCancel(ctx))
	for i := range r.items {
		if !r.items[i].planned() || r.stopping() {
			continue
		}
		sum := &r.items[i].Msg
		m, _, ok, err := browseOccurrence(ctx, q, &r.p.ids[i], r.nth[i], func(m mqwatch.Message) bool { return bodyStarts(&m, sum) })
		if err != nil {
			r.stopFor("browse "+r.req.Queue, err)
			return
		}
		if !ok {
			r.record([]int{i}, Skipped, "gone, someone else removed it meanwhile (MQRC_NO_MSG_AVAILABLE)", mqfmt.RCNoMsgAvailable, nil)
			continue
		}
		if !fn(i, &m) {
			return
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
		md, data, tg, skip := r.transform(idx, m)
		if skip != "" {
			r.record([]int{idx}, Skipped, skip, 0, nil)
			return true
		}
		return b.add(ctx, opPut{idx: idx, md: r.replayCopy(md), data: data, target: tg})
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
		r.record(written, Done, "", 0, nil)
		written = written[:0]
		return true
	}
	r.browseWanted(ctx, ctrl.conn, func(idx int, m *mqwatch.Message) bool {
		if err := r.lim.wait(ctx); err != nil {
			r.setStop("cancelled", err)
			return false
		}
		if err := qw.Write(mqfmt.QLoadMessage{MD: m.MD, HasMQMD: true, Data: m.Data}); err != nil {
			r.record([]int{idx}, Failed, "cannot be written to a dmpmqmsg file: "+err.Error(), 0, nil)
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

// EngineOps adapts an Engine to callers that name the queue manager on every
// call, as the dashboard's Operations interface does: Plan and Run come from
// the Engine, Fetch takes the queue manager's name too.
type EngineOps struct{ *Engine }

// Fetch is Engine.Fetch for qmgr, which must be the engine's queue manager
// when the engine was given one.
func (o EngineOps) Fetch(ctx context.Context, qmgr, queue string, s mqwatch.Summary) (mqwatch.Message, error) {
	if want := o.opts.QMgr; want != "" && qmgr != "" && qmgr != want {
		return mqwatch.Message{}, fmt.Errorf("fetch from %s on %s: this engine acts on %s", queue, qmgr, want)
	}
	return o.Engine.Fetch(ctx, queue, s)
}

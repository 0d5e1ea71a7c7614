package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// replanAfterRoomRun: another session's run took some of the messages an
// open dialog would act on. The dialog drops them and redoes its dry run, so
// the count the operator confirms is the count that will be acted on (not
// "done: 1 · skipped 21 (gone)" after confirming 22), and says so.
// m.gone are further messages it took (RoomEvent.Gone).
func (d *dialog) replanAfterRoomRun(c common, m roomRunMsg) tea.Cmd {
	res, gone, who := m.res, m.gone, m.who
	req := res.Plan.Request
	if (d.phase != phaseConfirm && d.phase != phasePlanning) || d.req.QMgr != req.QMgr || d.req.Queue != req.Queue {
		return nil
	}
	took := make(map[mqwatch.Key]bool, len(gone))
	for _, k := range gone {
		took[k] = true
	}
	for _, it := range res.Items {
		if it.Removed(req.Op) {
			took[it.Msg.Key()] = true
		}
	}
	keep := d.req.Messages[:0:0]
	for _, m := range d.req.Messages {
		if !took[m.Key()] {
			keep = append(keep, m)
		}
	}
	n := len(d.req.Messages) - len(keep)
	if d.marks != nil { // the marks beyond the dry run's sample too
		n = d.dropMarks(took)
		keep = planSampleOf(d.marks)
	}
	if n == 0 {
		return nil
	}
	d.req.Messages, d.onRun = keep, false
	if d.count() == 0 {
		// Nothing left to plan: an empty dry run would fail with "no
		// selection", which says nothing of what happened.
		d.emptied = fmt.Sprintf("nothing left: %s %s all %s — esc closes", mqfmt.Sanitize(who), req.Op.PastTense(), human(int64(n)))
		d.seq = c.Session().nextSeq() // a dry run still in flight is not this dialog's any more
		d.phase, d.askTarget, d.err, d.plan = phaseConfirm, false, nil, ops.OpPlan{}
		return nil
	}
	d.stale = fmt.Sprintf("%s acted on %s of these messages meanwhile: the dry run was redone for the %s left",
		mqfmt.Sanitize(who), human(int64(n)), human(int64(d.count())))
	if d.askTarget {
		return nil // the dry run comes once the target is taken
	}
	return d.planCmd(c)
}

package ui

import (
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/internal/confine"
	"github.com/poisonwatch/poisonwatch/model"
)

// session is what one operator's session did and knows: the journal of
// its actions (the audit view's rows), its marks, the GET/PUT inhibits it
// set, the screens still watching an outcome, the loaded rules table and
// its file capability. Screens reach it with common's Session; the App
// keeps none of it.
type session struct {
	now func() time.Time
	// journal is the account of acts the audit view reads: the process's,
	// the room's, or (without one) the session's own.
	journal *journal.Journal
	// results are the runs and edits this session carried out, by their
	// journal entry: enter on one in the audit view lists its messages.
	results map[uint64]ops.OpResult
	// marks are the marked messages, on the queue markQueue names: marks
	// never travel to another queue's action.
	marks     *model.Selection
	markQueue string
	// watching are screens that left the stack while they still await an
	// outcome (a fix dialog checking for its alert to clear, a define
	// sent, a prediction): results and polls still reach them (awaiter).
	watching []awaiter
	// rules is the runmqdlq rules table loaded with :rules FILE, nil if none.
	rules *rulesTable
	// files is how the session reads and writes host files (Files).
	files Files
	// exportDir is where files the session writes go unless the operator
	// types another path.
	exportDir string
	// seq numbers the requests whose answer comes later (a read, a dry
	// run, a search), so an answer for a screen that has gone, or asked
	// again, finds none.
	seq int
	// order is the dashboards' queue order (s cycles it).
	order queueSort
	// frozen: f holds the picture still; warming: the sources' history is
	// still being read.
	frozen, warming bool
	// frames is what the room's sessions drew from its pictures (nil
	// outside a room that shares them).
	frames *FrameCache
}

func newSession(o *Options) *session {
	now := func() time.Time { return o.Now() } // the clock as it is when asked
	j := o.Journal
	if j == nil {
		j = journal.New()
	}
	return &session{now: now, marks: model.NewSelection(), files: sessionFiles(o), exportDir: exportDirOf(o), journal: j,
		results: map[uint64]ops.OpResult{}}
}

// nextSeq numbers a request whose answer comes later.
func (s *session) nextSeq() int { s.seq++; return s.seq }

// still says the picture is held on purpose (frozen, or warming up), so
// data is old because it stands still.
func (s *session) still() bool { return s.frozen || s.warming }

// journalRun keeps a finished run for the audit view. The engine wrote it
// to the journal as it ended; a result without an entry (operations that
// keep no journal) is written here, once, the same way.
func (s *session) journalRun(res ops.OpResult) {
	req := &res.Plan.Request
	if req.DryRun || (len(res.Items) == 0 && res.Done+res.Skipped+res.Failed == 0) {
		return
	}
	if res.Entry == 0 {
		ent := s.journal.Append(ops.RunEntry(&res, s.now(), req.User, req.QMgr))
		res.Entry = ent.Seq
		if res.Verify != nil {
			s.journal.Append(ops.CameBackEntry(res.Verify, ent, s.now()))
		}
	}
	if res.Entry != 0 {
		s.results[res.Entry] = res
	}
}

// journalFix notes a fix, an inhibit or a define (R10h) that sent
// anything, written by the engine or, without one, here.
func (s *session) journalFix(res ops.FixResult) {
	if len(res.Steps) == 0 || res.DryRun || res.Entry != 0 {
		return
	}
	if res.Op == "" {
		res.Op = ops.OpFix
	}
	s.journal.Append(ops.FixEntry(&res, s.now()))
}

// journalEdit keeps an edit and resend as a run of one message.
func (s *session) journalEdit(res ops.EditResult) {
	if res.Plan.Request.DryRun || (res.Entry == 0 && !res.Done) {
		return
	}
	run := res.AsRun()
	if res.Entry == 0 {
		ent := s.journal.Append(ops.EditEntry(&res, s.now(), res.Plan.Request.User))
		res.Entry = ent.Seq
		if res.Verify != nil {
			s.journal.Append(ops.CameBackEntry(res.Verify, ent, s.now()))
		}
	}
	run.Entry = res.Entry
	s.results[res.Entry] = run
}

// markOn starts marking on queue; marks made on another queue are dropped.
func (s *session) markOn(queue string) {
	if s.markQueue != queue {
		s.marks.Clear()
		s.markQueue = queue
	}
}

// marksOn are the marks when they are on queue, nil otherwise.
func (s *session) marksOn(queue string) *model.Selection {
	if s.marks.Len() > 0 && s.markQueue == queue {
		return s.marks
	}
	return nil
}

// inhibitedBy says who set attr (GET, PUT) off on queue, here or (in a war
// room) in another session, and when, as the journal has it; "" when
// nobody did or it is on again.
func (s *session) inhibitedBy(qm, queue, attr string) string {
	e, ok := s.journal.Inhibited(qm, queue, attr)
	if !ok {
		return ""
	}
	return fmt.Sprintf("by %s at %s", cmpOr(e.Who(), "you"), e.At.Local().Format("15:04:05"))
}

// noFiles is why this session may touch no file, "" when it may.
func (s *session) noFiles() string {
	if d, ok := s.files.(confine.Denied); ok {
		return d.Why
	}
	return ""
}

// writeNew creates path with data through the session's Files; an
// existing file is refused.
func (s *session) writeNew(path string, data []byte) error {
	f, err := s.files.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// watch keeps a screen that left the stack while it awaits an outcome.
func (s *session) watch(w awaiter) { s.watching = append(s.watching, w) }

// stopWatching drops the screens that await nothing any more.
func (s *session) stopWatching() {
	var keep []awaiter // a new slice: a receive may be ranging over the old one
	for _, w := range s.watching {
		if w.awaiting() {
			keep = append(keep, w)
		}
	}
	s.watching = keep
}

package warroom

import (
	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/ui"
)

// Tell makes the room announce every entry of j as it is written: each
// act, what came back after it, each acknowledgement, who joined and who
// left, in the journal's words, so the room hears what the audit view, the
// recording and the report will say. It returns the function that stops.
func (r *Room) Tell(j *journal.Journal) (stop func()) {
	r.mu.Lock()
	r.journal = j
	r.mu.Unlock()
	return j.Subscribe(func(e journal.Entry) {
		// From no seat: an announcement of the journal hands nobody the
		// wheel (the act's own event did, when it ran).
		r.announce(ui.RoomEvent{Text: e.Sentence()})
	})
}

// journalPresence writes a join or a leave. It is called without r.mu:
// the journal tells the room, which takes it.
func (r *Room) journalPresence(kind journal.Kind, who Identity) {
	r.journalOf().Append(journal.Entry{At: r.now(), Kind: kind, Op: string(kind), User: who.User, Note: string(who.Role)})
}

// journalOf is the room's journal (nil: none).
func (r *Room) journalOf() *journal.Journal {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.journal
}

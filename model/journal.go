package model

import (
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"
)

// AckEntry is the episode's acknowledgement or snooze as the journal tells
// it, written where it was made (the session, or the war room).
func (e Episode) AckEntry(at time.Time) journal.Entry {
	kind := journal.Ack
	if e.Ack.Snooze {
		kind = journal.Snooze
	}
	on := e.Queue
	if on == "" {
		on = e.QMgr
	}
	return journal.Entry{At: at, Kind: kind, Op: string(kind), User: e.Ack.By, QMgr: e.QMgr, Queue: e.Queue,
		Alert: e.Key, Text: e.Rule + " on " + on, Note: e.Ack.Note, Until: e.Ack.Until}
}

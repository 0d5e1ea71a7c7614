package model

import (
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"
)

// AckEntry is an acknowledgement or a snooze of al as the journal tells it.
func AckEntry(al Alert, ack Ack, at time.Time) journal.Entry {
	kind := journal.Ack
	if ack.Snooze {
		kind = journal.Snooze
	}
	on := al.Queue
	if on == "" {
		on = al.QMgr
	}
	return journal.Entry{At: at, Kind: kind, Op: string(kind), User: ack.By, QMgr: al.QMgr, Queue: al.Queue,
		Alert: al.Key(), Text: al.Rule + " on " + on, Note: ack.Note, Until: ack.Until}
}

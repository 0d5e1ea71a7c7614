package warroom

import (
	"errors"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/ui"
)

// ErrViewerAck refuses an acknowledgement to a viewer: acknowledging tells
// the room someone is on it, which is an operator's word to give.
var ErrViewerAck = errors.New("viewers cannot acknowledge alerts: that needs a key with role=operator in the authorized keys")

// errCleared: the alert ended before the acknowledgement arrived.
var errCleared = errors.New("this alert has cleared: there is nothing to acknowledge")

var _ ui.AckRoom = (*Seat)(nil)

// MayAcknowledge says why this seat may not acknowledge, nil if it may.
func (s *Seat) MayAcknowledge() error {
	if s.who.Role != Operator {
		return ErrViewerAck
	}
	return nil
}

// Acknowledge records the acknowledgement in the shared book under the
// seat's own user (never a name the client chose) and tells every session.
// It does not take the wheel: acknowledging is not driving.
func (s *Seat) Acknowledge(b *model.AlertBook, k string, ack model.Ack) (model.Episode, error) {
	if err := s.MayAcknowledge(); err != nil {
		return model.Episode{}, err
	}
	ack.By = s.who.User
	ep, ok := b.Acknowledge(k, ack)
	if !ok {
		return ep, errCleared
	}
	// The room's journal has it (and tells every session); without one,
	// the room is told here.
	if j := s.room.journalOf(); j != nil {
		j.Append(ep.AckEntry(ack.At))
	} else {
		s.room.tell(s.id, ep.AckSentence())
	}
	return ep, nil
}

// tell broadcasts an event that changes nothing of who drives.
func (r *Room) tell(from int, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seq++
	r.events = append(r.events, ui.RoomEvent{Seq: r.seq, From: from, Text: text})
	if len(r.events) > keepEvents {
		r.events = r.events[len(r.events)-keepEvents:]
	}
	r.broadcastLocked()
}

package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/model"
)

// queueScreenFor builds the screen a queue of the header's queue manager
// opens on: triage for a DEADQ or BOQ, the message list otherwise; nil
// when the queue is unknown.
func queueScreenFor(c common, name string) screen {
	qm := c.QMgrName()
	q := c.State().QMgr(qm)
	if q.Queues[name] == nil {
		c.Flash("no such queue: " + name)
		return nil
	}
	if q.Groups[name] != nil {
		return newTriageScreen(qm, name)
	}
	return newQueueScreen(model.Location{Screen: model.ScreenQueue, QMgr: qm, Queue: name})
}

// openQueue opens a queue of the header's queue manager on its screen.
func openQueue(c common, name string) tea.Cmd {
	if s := queueScreenFor(c, name); s != nil {
		return c.Push(s)
	}
	return nil
}

// openDeadQ jumps to the DEADQ: Dashboard › DEADQ, whatever was open.
func openDeadQ(c common) tea.Cmd {
	q := c.State().QMgr(c.QMgrName())
	if q.Snap == nil || q.Snap.QMgr.DeadQ == "" {
		c.Flash("this queue manager has no dead-letter queue (ALTER QMGR DEADQ)")
		return nil
	}
	if s := queueScreenFor(c, q.Snap.QMgr.DeadQ); s != nil {
		return c.Jump(s)
	}
	return nil
}

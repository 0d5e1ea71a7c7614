package ui

import (
	"context"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Operations is what the ui needs from the engine beyond snapshots: reading a
// whole message on demand and running operator actions. main wires it to the
// actions package over a connection of its own (one call at a time per
// connection, so never the watcher's).
type Operations interface {
	// Fetch browses the full message the summary describes.
	Fetch(ctx context.Context, qmgr, queue string, s mqwatch.Summary) (mqwatch.Message, error)
	actionOps
}

// fetchedMsg carries a fetched message to the detail screen.
type fetchedMsg struct {
	seq int
	msg mqwatch.Message
	err error
}

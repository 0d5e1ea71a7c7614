package main

import (
	"context"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// TestRecordedOpsKeepTheDashboardsOptionalOperations: while a recording
// runs (serve's default) the dashboard still has x, I, e and ctrl+f.
func TestRecordedOpsKeepTheDashboardsOptionalOperations(t *testing.T) {
	var ops ui.Operations = recordedOps{Operations: &engineOps{}}
	if _, ok := ops.(ui.FixOps); !ok {
		t.Error("fixes and inhibits are hidden while recording")
	}
	if _, ok := ops.(editor); !ok {
		t.Error("edit and resend is hidden while recording")
	}
	type searcher interface {
		SearchBodies(context.Context, string, string, *actions.BodyPattern, func(actions.SearchProgress), func(mqwatch.Summary)) (actions.SearchProgress, error)
	}
	if _, ok := ops.(searcher); !ok {
		t.Error("body search is hidden while recording")
	}
}

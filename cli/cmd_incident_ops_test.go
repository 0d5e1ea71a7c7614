package cli

import (
	"context"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/ui"
)

// TestRecordedOpsKeepTheDashboardsOptionalOperations: while a recording
// runs (serve's default) the dashboard still has x, I, e and ctrl+f.
func TestRecordedOpsKeepTheDashboardsOptionalOperations(t *testing.T) {
	var o ui.Operations = recordedOps{Operations: &engineOps{}}
	if _, ok := o.(ui.FixOps); !ok {
		t.Error("fixes and inhibits are hidden while recording")
	}
	if _, ok := o.(editor); !ok {
		t.Error("edit and resend is hidden while recording")
	}
	type searcher interface {
		SearchBodies(context.Context, string, string, *ops.BodyPattern, func(ops.SearchProgress), func(mqwatch.Summary)) (ops.SearchProgress, error)
	}
	if _, ok := o.(searcher); !ok {
		t.Error("body search is hidden while recording")
	}
}

package ops

import (
	"testing"
	"time"
)

func TestR10_ExportNameHasTheQueueManager(t *testing.T) {
	at := time.Date(2026, 12, 1, 22, 40, 5, 0, time.FixedZone("x", 3600))
	for _, tt := range []struct{ qmgr, queue, want string }{
		{"QM1", "SYSTEM.DEAD.LETTER.QUEUE", "export-QM1-SYSTEM.DEAD.LETTER.QUEUE-20261201T214005Z.dmp"},
		{"QM2", "A/B%C", "export-QM2-A_B_C-20261201T214005Z.dmp"},
	} {
		if got := ExportName(tt.qmgr, tt.queue, at); got != tt.want {
			t.Errorf("ExportName(%q, %q) = %q, want %q", tt.qmgr, tt.queue, got, tt.want)
		}
	}
}

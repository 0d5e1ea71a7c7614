package ops

import (
	"strings"
	"time"
)

// ExportName proposes the file name of an export: the queue manager, the
// queue and the time, as discard archives are named, so exports from two
// queue managers' queues of one name never read alike and two exports never
// collide.
func ExportName(qmgr, queue string, t time.Time) string {
	return "export-" + strings.TrimPrefix(strings.TrimSuffix(archiveName(qmgr, queue, t, 1), ".dmp"), "discard-") + ".dmp"
}

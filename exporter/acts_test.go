package exporter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

type namedSource string

func (n namedSource) Name() string                        { return string(n) }
func (n namedSource) Snapshots() <-chan *mqwatch.Snapshot { return nil }

// actCounts scrapes the acts collector: its labels' values, in the
// labels' name order, → count.
func actCounts(t *testing.T, a *acts) map[string]float64 {
	t.Helper()
	ch := make(chan prometheus.Metric, 100)
	a.collect(ch)
	close(ch)
	out := map[string]float64{}
	for m := range ch {
		var pb dto.Metric
		if err := m.Write(&pb); err != nil {
			t.Fatal(err)
		}
		var ls []string
		for _, l := range pb.Label {
			ls = append(ls, l.GetValue())
		}
		out[strings.Join(ls, " ")] = pb.Counter.GetValue()
	}
	return out
}

func appendLines(t *testing.T, path string, recs ...ops.AuditRecord) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, r := range recs {
		b, _ := json.Marshal(r)
		f.Write(append(b, '\n'))
	}
}

// The exporter counts the journal's acts from the audit log's act lines,
// reading what was appended since the last scrape, with bounded labels.
func TestActsAreCountedFromTheAuditLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	a := newActs(path, []Source{namedSource("QM1")})
	if got := actCounts(t, a); len(got) != 0 {
		t.Fatalf("no log yet, counts %v", got)
	}
	appendLines(t, path,
		ops.AuditRecord{QMgr: "QM1", Action: ops.OpRequeue, MsgId: "01", Outcome: "requeued"}, // a message's line: not an act
		ops.AuditRecord{QMgr: "QM1", Action: ops.OpRequeue, Act: "run", Status: "ok"},
		ops.AuditRecord{QMgr: "QM1", Action: ops.OpRequeue, Act: "came back", Status: "came back"},
		ops.AuditRecord{QMgr: "QM9", Act: "fix", Status: "ok"},
		ops.AuditRecord{QMgr: "QM1", Act: "x\x1b]0;evil", Status: strings.Repeat("z", 100)})
	got := actCounts(t, a)
	// Keyed "act qmgr status": the labels in name order.
	want := map[string]float64{"run QM1 ok": 1, "came back QM1 came back": 1, "fix (other) ok": 1, "(other) QM1 (other)": 1}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%q = %v, want %v (all: %v)", k, got[k], n, got)
		}
	}
	// What is appended later adds; a half-written line waits until it is whole.
	appendLines(t, path, ops.AuditRecord{QMgr: "QM1", Act: "run", Status: "ok"})
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString(`{"qmgr":"QM1","act":"run","sta`)
	f.Close()
	if got := actCounts(t, a); got["run QM1 ok"] != 2 {
		t.Fatalf("after one more run: %v", got)
	}
	f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString(`tus":"ok"}` + "\n")
	f.Close()
	if got := actCounts(t, a); got["run QM1 ok"] != 3 {
		t.Fatalf("the finished line: %v", got)
	}
}

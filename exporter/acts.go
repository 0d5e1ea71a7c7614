package exporter

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/incident/journal"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

var descActs = desc("operator_acts_total", "Acts of operators and of the tool on the queue manager, as the journal wrote them "+
	"to the audit log when each ended: act is run, came back (the check after a run or an edit), edit, fix, inhibit, define; "+
	"status how it ended (ok, partial, failed, refused, came back).", "qmgr", "act", "status")

// maxActRead bounds what one scrape reads of the audit log: a log that grew
// by more is caught up over the next scrapes.
const maxActRead = 8 << 20

// acts counts the act lines of the audit log, the journal's durable form,
// reading only what was appended since the last scrape. The labels are
// bounded: queue managers the exporter watches (others are "(other)"),
// and the journal's own kinds and statuses.
type acts struct {
	path   string
	qmgrs  map[string]bool
	mu     sync.Mutex
	off    int64
	counts map[[3]string]float64
}

func newActs(path string, sources []Source) *acts {
	a := &acts{path: path, qmgrs: map[string]bool{}, counts: map[[3]string]float64{}}
	for _, s := range sources {
		a.qmgrs[s.Name()] = true
	}
	return a
}

var actKinds = map[string]bool{string(journal.Run): true, string(journal.CameBack): true, string(journal.Edit): true,
	string(journal.Fix): true, string(journal.Inhibit): true, string(journal.Define): true}

var actStatuses = map[string]bool{string(journal.OK): true, string(journal.Partial): true, string(journal.Failed): true,
	string(journal.Refused): true, string(journal.Returned): true}

// collect reads what the log gained and sends every count. A log that
// shrank (rotated) is read again from its start; one that cannot be read
// keeps the counts so far.
func (a *acts) collect(ch chan<- prometheus.Metric) {
	if a == nil || a.path == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.read()
	for k, n := range a.counts {
		ch <- prometheus.MustNewConstMetric(descActs, prometheus.CounterValue, n, k[0], k[1], k[2])
	}
}

func (a *acts) read() {
	f, err := safeload.Open(a.path)
	if err != nil {
		return
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() < a.off {
		a.off = 0
	}
	if _, err := f.Seek(a.off, io.SeekStart); err != nil {
		return
	}
	r := bufio.NewReader(io.LimitReader(f, maxActRead))
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer is no act line: skip it whole.
			a.off += int64(len(line))
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.ReadSlice('\n')
				a.off += int64(len(line))
			}
			continue
		}
		if err != nil {
			return // an unfinished last line is read when it is whole
		}
		a.off += int64(len(line))
		a.count(line)
	}
}

func (a *acts) count(line []byte) {
	var rec ops.AuditRecord
	if json.Unmarshal(line, &rec) != nil || rec.Act == "" {
		return
	}
	qm, act, st := rec.QMgr, rec.Act, rec.Status
	if !a.qmgrs[qm] {
		qm = Other
	}
	if !actKinds[act] {
		act = Other
	}
	if !actStatuses[st] {
		st = Other
	}
	a.counts[[3]string{qm, act, st}]++
}

package exporter

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// scale is a queue manager the benchmarks scrape: queues local queues (one
// in ten with a BOQ, one in ten with messages at its head), and a DEADQ of
// deadq messages over 6 reasons and dests destinations.
type scale struct{ queues, deadq, dests int }

func (sc scale) String() string {
	return fmt.Sprintf("queues=%d/deadq=%d/destinations=%d", sc.queues, sc.deadq, sc.dests)
}

func (sc scale) mqsc() string {
	var b strings.Builder
	fmt.Fprintf(&b, "DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(%d)\nALTER QMGR DEADQ(QM1.DEADQ)\n", 2*sc.deadq)
	for i := range sc.queues - 1 {
		if i%10 == 0 {
			fmt.Fprintf(&b, "DEFINE QLOCAL(APP.%04d.IN) BOTHRESH(3) BOQNAME(APP.%04d.BO)\nDEFINE QLOCAL(APP.%04d.BO)\n", i, i, i)
			continue
		}
		fmt.Fprintf(&b, "DEFINE QLOCAL(APP.%04d.IN)\n", i)
	}
	return b.String()
}

func (sc scale) fill(t testing.TB, e *env) {
	reasons := []mqfmt.Reason{mqfmt.RCUnknownObjectName, mqfmt.RCQFull, mqfmt.RCNotAuthorized,
		mqfmt.RCPutInhibited, mqfmt.RCMsgTooBigForQ, mqfmt.RCBackoutThresholdReached}
	dls := make([]deadLetter, sc.deadq)
	for i := range dls {
		dls[i] = deadLetter{reasons[i%len(reasons)], fmt.Sprintf("DEST.%05d", (i*7919)%sc.dests)}
	}
	e.putDeadLetters(t, dls)
	for i := 0; i < sc.queues-1; i += 10 {
		e.put(t, fmt.Sprintf("APP.%04d.IN", i), 3)
	}
}

// The scales' queues (with their BOQs, up to 1,100 local queues) all get
// series (MaxQueues twice the queues): the figures are of every queue, as
// measured before --max-queues existed.
var scales = []scale{{1, 0, 1}, {100, 10_000, 100}, {1000, 100_000, 1000}}

// BenchmarkScrape is one scrape of /metrics as Prometheus makes it (text
// format, gzip), Go and process metrics included: what a scrape costs the
// exporter's process. The queue manager it costs nothing
// (TestScrapesCostTheQueueManagerNothing).
func BenchmarkScrape(b *testing.B) {
	for _, sc := range scales {
		b.Run(sc.String(), func(b *testing.B) {
			e := newEnvScript(b, sc.mqsc(), Config{MaxQueues: 2 * sc.queues}, sc.fill)
			h := e.exp.Handler()
			req := httptest.NewRequest("GET", "/metrics", nil)
			req.Header.Set("Accept", "text/plain;version=0.0.4;q=1,*/*;q=0.1")
			req.Header.Set("Accept-Encoding", "gzip")
			var rec *httptest.ResponseRecorder
			b.ReportAllocs()
			for b.Loop() {
				rec = httptest.NewRecorder()
				h.ServeHTTP(rec, req)
			}
			wire := rec.Body.Len()
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				b.Fatal(err)
			}
			body, err := io.ReadAll(zr)
			if err != nil {
				b.Fatal(err)
			}
			series := 0
			for _, l := range bytes.Split(body, []byte("\n")) {
				if len(l) > 0 && l[0] != '#' {
					series++
				}
			}
			b.ReportMetric(float64(wire), "gzip-bytes/scrape")
			b.ReportMetric(float64(len(body)), "text-bytes/scrape")
			b.ReportMetric(float64(series), "series")
		})
	}
}

// BenchmarkFigures is what the exporter adds to each poll beyond the
// dashboard's own fold: building the figures a scrape reads.
func BenchmarkFigures(b *testing.B) {
	for _, sc := range scales {
		b.Run(sc.String(), func(b *testing.B) {
			e := newEnvScript(b, sc.mqsc(), Config{MaxQueues: 2 * sc.queues}, sc.fill)
			snap := e.src.last()
			st := model.New(time.Now, time.Hour)
			st.Fold(snap)
			q := st.QMgrs[snap.QMgrName]
			var t tally
			b.ReportAllocs()
			for b.Loop() {
				build("QM1", q, snap, &t, limits{2 * sc.queues, DefaultMaxReasons, DefaultMaxDestinations})
			}
		})
	}
}

package exporter

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	pmodel "github.com/prometheus/common/model"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// envScript is a queue manager in trouble: a full backout queue (R8b), a
// BOTHRESH 0 queue whose head was rolled back (R1c), a queue whose head is
// past BOTHRESH (R8c), and an alias, which has no depth to report.
const envScript = `
DEFINE QLOCAL(QM1.DEADQ) MAXDEPTH(5000)
ALTER QMGR DEADQ(QM1.DEADQ)
DEFINE QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)
DEFINE QLOCAL(ORDERS.BO) MAXDEPTH(10)
DEFINE QLOCAL(LOOP.IN) BOTHRESH(0)
DEFINE QLOCAL(STUCK.IN) BOTHRESH(2) BOQNAME(STUCK.BO)
DEFINE QLOCAL(STUCK.BO)
DEFINE QALIAS(ORDERS.ALIAS) TARGET(ORDERS.IN)
`

// deadLetter is one message of the test DEADQ.
type deadLetter struct {
	reason mqfmt.Reason
	dest   string
}

// envDeadLetters: 30 × 2085, 20 × 2053, 10 × 2087; DEST.00 holds 27 and the
// eleven other destinations 3 each.
func envDeadLetters() []deadLetter {
	var out []deadLetter
	for i := range 60 {
		rc := mqfmt.RCUnknownObjectName
		switch {
		case i >= 50:
			rc = mqfmt.RCUnknownRemoteQMgr
		case i >= 30:
			rc = mqfmt.RCQFull
		}
		dest := fmt.Sprintf("DEST.%02d", i%12)
		if i >= 36 {
			dest = "DEST.00"
		}
		out = append(out, deadLetter{rc, dest})
	}
	return out
}

// env is an embedded queue manager watched by a real watcher (polling only
// when asked) whose snapshots feed the exporter, served over HTTP.
type env struct {
	qm   *embeddedtest.QM
	w    *mqwatch.Watcher
	src  *teeSource
	exp  *Exporter
	url  string
	ctx  context.Context
	seq  uint64 // of the last snapshot the exporter is known to have folded
	conn mqwatch.Conn
}

func newEnv(t testing.TB, cfg Config, fill func(t testing.TB, e *env)) *env {
	t.Helper()
	return newEnvScript(t, envScript, cfg, fill)
}

// newEnvScript is newEnv on the queues an MQSC script defines.
func newEnvScript(t testing.TB, script string, cfg Config, fill func(t testing.TB, e *env)) *env {
	t.Helper()
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: script})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	e := &env{qm: qm, ctx: ctx, conn: qm.Conn(mqwatch.ConnectOptions{ApplName: "exporter-test"})}
	fill(t, e)
	// An hour between polls: the test asks for each poll itself.
	e.w = mqwatch.NewWatcher(mqwatch.WatchConfig{Name: "QM1", Connector: qm, Interval: time.Hour})
	e.src = newTee(ctx, e.w)
	cfg.Sources, cfg.Interval = []Source{e.src}, time.Hour
	e.exp = New(cfg)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() { e.w.Run(ctx) })
	wg.Go(func() { e.exp.Run(ctx) })
	wg.Go(func() {
		if err := e.exp.Serve(ctx, l); err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	t.Cleanup(func() { cancel(); wg.Wait() })
	e.url = "http://" + l.Addr().String() + "/metrics"
	e.waitFolded(t, 1) // the watcher's first poll, at start
	return e
}

// fillTrouble puts the messages envScript's alerts need and the DEADQ.
func fillTrouble(t testing.TB, e *env) {
	t.Helper()
	e.put(t, "ORDERS.BO", 10)
	e.put(t, "ORDERS.IN", 2)
	e.put(t, "LOOP.IN", 1)
	e.rollBack(t, "LOOP.IN", 2)
	e.put(t, "STUCK.IN", 3)
	e.rollBack(t, "STUCK.IN", 2)
	e.putDeadLetters(t, envDeadLetters())
}

func (e *env) open(t testing.TB, queue string, o mqwatch.OpenOptions) mqwatch.Queue {
	t.Helper()
	q, err := e.conn.Open(e.ctx, mqwatch.ObjectDesc{Name: queue}, o)
	if err != nil {
		t.Fatalf("open %s: %v", queue, err)
	}
	return q
}

func (e *env) put(t testing.TB, queue string, n int) {
	t.Helper()
	q := e.open(t, queue, mqwatch.OpenOptions{Output: true})
	defer q.Close(e.ctx)
	for i := range n {
		md := mqfmt.NewMQMD()
		md.Format = mqfmt.FmtString
		if err := q.Put(e.ctx, &md, fmt.Appendf(nil, `{"order":%d}`, i), mqwatch.PutOptions{NewMsgId: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// rollBack gets the head under syncpoint and backs out, times times, as a
// plain MQI consumer failing on it does.
func (e *env) rollBack(t testing.TB, queue string, times int) {
	t.Helper()
	q := e.open(t, queue, mqwatch.OpenOptions{Input: true})
	defer q.Close(e.ctx)
	for range times {
		if _, err := q.Get(e.ctx, mqwatch.GetOptions{Syncpoint: true}); err != nil {
			t.Fatal(err)
		}
		if err := e.conn.Backout(e.ctx); err != nil {
			t.Fatal(err)
		}
	}
}

func (e *env) putDeadLetters(t testing.TB, dls []deadLetter) {
	t.Helper()
	q := e.open(t, "QM1.DEADQ", mqwatch.OpenOptions{Output: true, SetAllContext: true})
	defer q.Close(e.ctx)
	for i, d := range dls {
		md := mqfmt.NewMQMD()
		md.Format, md.PutApplName = mqfmt.FmtString, "orders-app"
		dmd, data, err := actions.ToDeadLetter(md, fmt.Appendf(nil, `{"order":%d}`, i), actions.DeadLetterOptions{
			Reason: d.reason, DestQName: d.dest, DestQMgrName: "QM1", PutApplName: "amqrmppa", Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		dmd.MsgId = [24]byte{byte(i), byte(i >> 8), byte(i >> 16), 1}
		if err := q.Put(e.ctx, &dmd, data, mqwatch.PutOptions{Context: mqwatch.ContextSetAll}); err != nil {
			t.Fatal(err)
		}
	}
}

// poll asks for a poll and waits until the exporter has folded it.
func (e *env) poll(t testing.TB) *mqwatch.Snapshot {
	t.Helper()
	e.w.Refresh()
	e.waitFolded(t, e.seq+1)
	return e.src.last()
}

// waitFolded scrapes until polls_total says the exporter folded seq.
func (e *env) waitFolded(t testing.TB, seq uint64) {
	t.Helper()
	// A minute: the first poll of a benchmark's 100,000-message DEADQ
	// reads every message.
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if v, ok := sample(e.scrape(t), "poisonwatch_qmgr_polls_total", "qmgr", "QM1"); ok && uint64(v) >= seq {
			e.seq = uint64(v)
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the exporter did not fold poll %d within a minute", seq)
}

// scrape GETs /metrics and parses it as Prometheus does.
func (e *env) scrape(t testing.TB) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(e.url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /metrics: %s\n%s", resp.Status, b)
	}
	p := expfmt.NewTextParser(pmodel.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	return fams
}

// samples returns every sample of a family whose labels include the given
// name/value pairs, keyed by the values of the labels named in by.
func samples(fams map[string]*dto.MetricFamily, name string, by []string, match ...string) map[string]float64 {
	out := map[string]float64{}
	f := fams[name]
	if f == nil {
		return out
	}
next:
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, lp := range m.GetLabel() {
			labels[lp.GetName()] = lp.GetValue()
		}
		for i := 0; i+1 < len(match); i += 2 {
			if labels[match[i]] != match[i+1] {
				continue next
			}
		}
		var key []string
		for _, b := range by {
			key = append(key, labels[b])
		}
		out[strings.Join(key, "/")] += value(m)
	}
	return out
}

// sample is the one sample of a family matching the label pairs.
func sample(fams map[string]*dto.MetricFamily, name string, match ...string) (float64, bool) {
	got := samples(fams, name, nil, match...)
	v, ok := got[""]
	return v, ok
}

func value(m *dto.Metric) float64 {
	switch {
	case m.Gauge != nil:
		return m.Gauge.GetValue()
	case m.Counter != nil:
		return m.Counter.GetValue()
	case m.Untyped != nil:
		return m.Untyped.GetValue()
	}
	return 0
}

// teeSource hands the watcher's snapshots to the exporter and keeps the
// last for the test to compare with.
type teeSource struct {
	out chan *mqwatch.Snapshot
	mu  sync.Mutex
	all []*mqwatch.Snapshot
}

func newTee(ctx context.Context, w *mqwatch.Watcher) *teeSource {
	s := &teeSource{out: make(chan *mqwatch.Snapshot)}
	go func() {
		defer close(s.out)
		for snap := range w.Snapshots() {
			s.mu.Lock()
			s.all = append(s.all, snap)
			s.mu.Unlock()
			select {
			case s.out <- snap:
			case <-ctx.Done():
				return
			}
		}
	}()
	return s
}

func (s *teeSource) Name() string                        { return "QM1" }
func (s *teeSource) Snapshots() <-chan *mqwatch.Snapshot { return s.out }

func (s *teeSource) last() *mqwatch.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all[len(s.all)-1]
}

func (s *teeSource) snapshots() []*mqwatch.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*mqwatch.Snapshot(nil), s.all...)
}

package conformance

import (
	"sort"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Queue discovery as DISPLAY QUEUE does it: generic names, every queue type,
// the attributes poisonwatch routes and lints by.
func discoveryCases() []testCase {
	return []testCase{
		{"pattern_lists_queues_with_their_attributes", testDiscoveryAttributes},
		{"generic_and_exact_patterns", testDiscoveryPatterns},
		{"inquire_agrees_with_discovery", testInquireAgrees},
		{"status_only_for_local_queues", testStatusLocalOnly},
	}
}

// wantQueue is what discovery must report for one SetupMQSC object; zero
// fields are not checked except where check says so.
type wantQueue struct {
	name  string
	check func(q mqwatch.QueueInfo) bool
	say   string
}

func discoveryExpectations() []wantQueue {
	return []wantQueue{
		{qMain, func(q mqwatch.QueueInfo) bool {
			return q.Type == mqwatch.QLocal && q.MaxDepth == 5000 && q.MaxMsgLen == 4194304 &&
				q.Description == "poisonwatch conformance: general queue" && !q.DefPersistent && q.DefPriority == 0 &&
				q.BackoutThresh == 0 && q.BackoutQName == "" && q.Usage == mqwatch.UsageNormal && q.DefType == mqwatch.Predefined
		}, "QLOCAL MAXDEPTH 5000 MAXMSGL 4194304 DESCR, DEFPSIST(NO) DEFPRTY(0), no poison settings, predefined"},
		{qOther, func(q mqwatch.QueueInfo) bool { return q.DefPersistent && q.DefPriority == 7 }, "DEFPSIST(YES) DEFPRTY(7)"},
		{qSmall, func(q mqwatch.QueueInfo) bool { return q.MaxDepth == 2 && q.MaxMsgLen == 100 }, "MAXDEPTH(2) MAXMSGL(100)"},
		{qPutInh, func(q mqwatch.QueueInfo) bool { return q.InhibitPut && !q.InhibitGet }, "PUT(DISABLED) GET(ENABLED)"},
		{qGetInh, func(q mqwatch.QueueInfo) bool { return q.InhibitGet && !q.InhibitPut }, "GET(DISABLED) PUT(ENABLED)"},
		{qBase, func(q mqwatch.QueueInfo) bool {
			return q.BackoutThresh == 3 && q.BackoutQName == qBOQ && q.HardenBackout
		}, "BOTHRESH(3) BOQNAME(CONF.BOQ) HARDENBO"},
		{qAlias, func(q mqwatch.QueueInfo) bool { return q.Type == mqwatch.QAlias && q.Target == qBase }, "QALIAS TARGET(CONF.BASE)"},
		{qRemote, func(q mqwatch.QueueInfo) bool {
			return q.Type == mqwatch.QRemote && q.RemoteName == qRemoteName && q.RemoteQMgr == remoteQMgr && q.XmitQ == qXmit
		}, "QREMOTE RNAME(CONF.TARGET) RQMNAME(CONFQM2) XMITQ(CONF.XMITQ)"},
		{qXmit, func(q mqwatch.QueueInfo) bool { return q.Type == mqwatch.QLocal && q.Usage == mqwatch.UsageXmitQ }, "USAGE(XMITQ)"},
		{qModel, func(q mqwatch.QueueInfo) bool {
			return q.Type == mqwatch.QModel && q.DefType == mqwatch.TemporaryDynamic && q.BackoutThresh == 5
		}, "QMODEL DEFTYPE(TEMPDYN) BOTHRESH(5)"},
		{qDurModel, func(q mqwatch.QueueInfo) bool {
			return q.Type == mqwatch.QModel && q.DefType == mqwatch.PermanentDynamic
		}, "QMODEL DEFTYPE(PERMDYN)"},
		{qMonitored, func(q mqwatch.QueueInfo) bool { return q.Monitoring == mqwatch.MonMedium }, "MONQ(MEDIUM)"},
		{qUnmonitor, func(q mqwatch.QueueInfo) bool { return q.Monitoring == mqwatch.MonOff }, "MONQ(OFF)"},
		{qDeadQ, func(q mqwatch.QueueInfo) bool { return q.Type == mqwatch.QLocal && q.Shareable }, "QLOCAL SHARE"},
	}
}

func testDiscoveryAttributes(e *env) {
	qs, err := e.admin().Queues(e.ctx, "CONF.*")
	e.wantNoErr(err, "list CONF.*")
	byName := map[string]mqwatch.QueueInfo{}
	for _, q := range qs {
		if !strings.HasPrefix(q.Name, "CONF.") {
			e.t.Errorf("pattern CONF.* listed %q", q.Name)
		}
		byName[q.Name] = q
	}
	for _, w := range discoveryExpectations() {
		q, ok := byName[w.name]
		switch {
		case !ok:
			e.t.Errorf("CONF.* does not list %s", w.name)
		case !w.check(q):
			e.t.Errorf("%s listed as %+v, want %s", w.name, q, w.say)
		}
	}
}

// names returns the sorted names a pattern lists.
func (e *env) names(pattern string) []string {
	e.t.Helper()
	qs, err := e.admin().Queues(e.ctx, pattern)
	e.wantNoErr(err, "list "+pattern)
	var out []string
	for _, q := range qs {
		out = append(out, q.Name)
	}
	sort.Strings(out)
	return out
}

func testDiscoveryPatterns(e *env) {
	if got := e.names("CONF.B*"); strings.Join(got, ",") != qBase+","+qBOQ {
		e.t.Errorf("CONF.B* lists %v, want [%s %s]", got, qBase, qBOQ)
	}
	if got := e.names(qBase); len(got) != 1 || got[0] != qBase {
		e.t.Errorf("exact name %s lists %v", qBase, got)
	}
	all := e.names("*")
	for _, want := range []string{qBase, qDeadQ, qModel, qAlias, qRemote} {
		if i := sort.SearchStrings(all, want); i == len(all) || all[i] != want {
			e.t.Errorf("* does not list %s", want)
		}
	}
}

func testInquireAgrees(e *env) {
	listed := e.queueInfo(qBase)
	info, err := e.open(e.admin(), qBase, mqwatch.OpenOptions{Inquire: true}).Inquire(e.ctx)
	e.wantNoErr(err, "inquire "+qBase)
	if info != listed {
		e.t.Errorf("MQINQ says %+v, discovery says %+v", info, listed)
	}
}

// Queue status exists for local queues only; a pattern that also matches
// aliases, remote definitions and models lists the local queues alone.
func testStatusLocalOnly(e *env) {
	sts, err := e.admin().QueueStatus(e.ctx, "CONF.*")
	e.wantNoErr(err, "queue status of CONF.*")
	got := map[string]bool{}
	for _, s := range sts {
		got[s.Name] = true
	}
	for _, n := range []string{qMain, qBase, qDeadQ} {
		if !got[n] {
			e.t.Errorf("status of CONF.* lacks local queue %s", n)
		}
	}
	for _, n := range []string{qAlias, qRemote, qModel} {
		if got[n] {
			e.t.Errorf("status of CONF.* lists %s, which is not a local queue", n)
		}
	}
}

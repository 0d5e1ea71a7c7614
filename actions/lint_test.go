package actions

import (
	"slices"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

const mb4 = 4194304

func lq(name string, thresh int32, boq string) mqwatch.QueueInfo {
	return mqwatch.QueueInfo{Name: name, Type: mqwatch.QLocal, MaxDepth: 5000, MaxMsgLen: mb4, BackoutThresh: thresh, BackoutQName: boq}
}

// healthy is a queue manager with nothing to report.
func healthy() LintInput {
	dlq := lq("QM1.DEADQ", 0, "")
	dlq.MaxMsgLen = mb4 + dlhLen
	bo := lq("ORDERS.BO", 0, "")
	bo.MaxMsgLen = mb4 + rfh2FixedLen
	return LintInput{
		QMgr:   mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ", MaxMsgLen: mb4},
		Queues: []mqwatch.QueueInfo{lq("ORDERS.IN", 3, "ORDERS.BO"), bo, dlq, {Name: "SYSTEM.ADMIN.COMMAND.QUEUE", Type: mqwatch.QLocal, MaxMsgLen: 100 * 1024 * 1024}},
		Status: []mqwatch.QueueStatus{{Name: "ORDERS.IN", Depth: 10, OpenInput: 2}, {Name: "ORDERS.BO"}, {Name: "QM1.DEADQ"}},
	}
}

func edit(in LintInput, f func(*LintInput)) LintInput {
	in.Queues = slices.Clone(in.Queues)
	in.Status = slices.Clone(in.Status)
	f(&in)
	return in
}

func setQueue(in *LintInput, name string, f func(*mqwatch.QueueInfo)) {
	for i := range in.Queues {
		if in.Queues[i].Name == name {
			f(&in.Queues[i])
			return
		}
	}
	panic("no queue " + name)
}

func setStatus(in *LintInput, name string, depth int32) {
	for i := range in.Status {
		if in.Status[i].Name == name {
			in.Status[i].Depth = depth
			return
		}
	}
	in.Status = append(in.Status, mqwatch.QueueStatus{Name: name, Depth: depth})
}

func TestLintHealthyConfigurationHasNoFindings(t *testing.T) {
	if got := Lint(healthy()); len(got) != 0 {
		t.Errorf("findings on a healthy queue manager: %v", got)
	}
}

// lintCase expects one finding: its rule on a queue, severity, a phrase of
// its why, and (when set) its exact MQSC fix.
type lintCase struct {
	name  string
	in    LintInput
	sev   Severity
	rule  string
	queue string
	why   string
	fix   []string
}

func runLintCases(t *testing.T, tests []lintCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Lint(tc.in)
			i := slices.IndexFunc(got, func(f Finding) bool { return f.Rule == tc.rule && f.Queue == tc.queue })
			if i < 0 {
				t.Fatalf("no %s finding on %s in:\n%s", tc.rule, tc.queue, findingsText(got))
			}
			f := got[i]
			if f.Severity != tc.sev || !strings.Contains(f.Why, tc.why) {
				t.Errorf("finding %s, want severity %s and why containing %q", f, tc.sev, tc.why)
			}
			if tc.fix != nil && !slices.Equal(f.Fix, tc.fix) {
				t.Errorf("fix %q, want %q", f.Fix, tc.fix)
			}
		})
	}
}

func TestLintDeadQ(t *testing.T) {
	runLintCases(t, []lintCase{
		{name: "R8a_no_DEADQ_is_a_warning", in: edit(healthy(), func(in *LintInput) { in.QMgr.DeadQ = "" }),
			sev: Warning, rule: "R8a", queue: "QM1", why: "no dead-letter queue",
			fix: []string{"DEFINE QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) MAXDEPTH(50000) MAXMSGL(4194476)", "ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)"}},
		{name: "R8a_no_DEADQ_with_BOTHRESH_but_no_BOQNAME_is_critical", in: edit(healthy(), func(in *LintInput) {
			in.QMgr.DeadQ = ""
			in.Queues = append(in.Queues, lq("PAY.IN", 5, ""), mqwatch.QueueInfo{Name: defaultDeadQ, Type: mqwatch.QLocal, MaxMsgLen: mb4})
		}), sev: Critical, rule: "R8a", queue: "QM1", why: "PAY.IN sends its poison there", fix: []string{"ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)"}},
		{name: "R8a_DEADQ_missing_is_critical", in: edit(healthy(), func(in *LintInput) { in.QMgr.DeadQ = "NO.SUCH.DLQ" }),
			sev: Critical, rule: "R8a", queue: "NO.SUCH.DLQ", why: "does not exist", fix: []string{"DEFINE QLOCAL(NO.SUCH.DLQ) MAXDEPTH(50000) MAXMSGL(4194476)"}},
		{name: "R8a_DEADQ_not_local_is_critical", in: edit(healthy(), func(in *LintInput) {
			in.Queues = append(in.Queues, mqwatch.QueueInfo{Name: "DLQ.ALIAS", Type: mqwatch.QAlias, Target: "QM1.DEADQ"})
			in.QMgr.DeadQ = "DLQ.ALIAS"
		}), sev: Critical, rule: "R8a", queue: "DLQ.ALIAS", why: "is a QALIAS"},
		{name: "R8a_DEADQ_near_MAXDEPTH_warns", in: edit(healthy(), func(in *LintInput) { setStatus(in, "QM1.DEADQ", 4100) }),
			sev: Warning, rule: "R8a", queue: "QM1.DEADQ", why: "near MAXDEPTH (4100 of 5000)"},
		{name: "R8a_DEADQ_full_is_critical", in: edit(healthy(), func(in *LintInput) { setStatus(in, "QM1.DEADQ", 5000) }),
			sev: Critical, rule: "R8a", queue: "QM1.DEADQ", why: "is full"},
		{name: "R8a_DEADQ_put_inhibited_is_critical", in: edit(healthy(), func(in *LintInput) {
			setQueue(in, "QM1.DEADQ", func(q *mqwatch.QueueInfo) { q.InhibitPut = true })
		}), sev: Critical, rule: "R8a", queue: "QM1.DEADQ", why: "PUT(DISABLED)", fix: []string{"ALTER QLOCAL(QM1.DEADQ) PUT(ENABLED)"}},
		{name: "R8a_DEADQ_MAXMSGL_below_largest_queue_plus_DLH_warns", in: edit(healthy(), func(in *LintInput) {
			big := lq("IMAGES.IN", 0, "")
			big.MaxMsgLen = 10 * 1024 * 1024
			in.Queues = append(in.Queues, big)
			in.QMgr.MaxMsgLen = maxMAXMSGL
		}), sev: Warning, rule: "R8a", queue: "QM1.DEADQ", why: "10485760-byte message from IMAGES.IN", fix: []string{"ALTER QLOCAL(QM1.DEADQ) MAXMSGL(10485932)"}},
	})
}

func TestLintInputQueues(t *testing.T) {
	runLintCases(t, []lintCase{
		{name: "R1c_BOTHRESH_0_with_backed_out_messages_warns", in: edit(healthy(), func(in *LintInput) {
			setQueue(in, "ORDERS.IN", func(q *mqwatch.QueueInfo) { q.BackoutThresh, q.BackoutQName = 0, "" })
			in.MaxBackoutSeen = map[string]int32{"ORDERS.IN": 2}
		}), sev: Warning, rule: "R1c", queue: "ORDERS.IN", why: "BackoutCount up to 2", fix: []string{"ALTER QLOCAL(ORDERS.IN) BOTHRESH(3) BOQNAME(ORDERS.BO)"}},
		{name: "R1c_BOTHRESH_0_loop_is_critical_and_defines_the_BOQ", in: edit(healthy(), func(in *LintInput) {
			in.Queues = append(in.Queues, lq("PAYMENTS.IN", 0, ""))
			in.MaxBackoutSeen = map[string]int32{"PAYMENTS.IN": 4000}
		}), sev: Critical, rule: "R1c", queue: "PAYMENTS.IN", why: "backed out 4000 times",
			fix: []string{"DEFINE QLOCAL(PAYMENTS.BO) MAXDEPTH(5000) MAXMSGL(4194340)", "ALTER QLOCAL(PAYMENTS.IN) BOTHRESH(3) BOQNAME(PAYMENTS.BO)"}},
		{name: "R1c_BOTHRESH_0_with_consumers_is_info", in: edit(healthy(), func(in *LintInput) {
			in.Queues = append(in.Queues, lq("QUOTES.IN", 0, ""))
			in.Status = append(in.Status, mqwatch.QueueStatus{Name: "QUOTES.IN", OpenInput: 1})
		}), sev: Info, rule: "R1c", queue: "QUOTES.IN", why: "poison handling is disabled"},
		{name: "R2c_BOTHRESH_without_BOQNAME_warns", in: edit(healthy(), func(in *LintInput) { in.Queues = append(in.Queues, lq("PAY.IN", 5, "")) }),
			sev: Warning, rule: "R2c", queue: "PAY.IN", why: "BOTHRESH 5 without BOQNAME",
			fix: []string{"DEFINE QLOCAL(PAY.BO) MAXDEPTH(5000) MAXMSGL(4194340)", "ALTER QLOCAL(PAY.IN) BOTHRESH(5) BOQNAME(PAY.BO)"}},
		{name: "R2c_model_queue_without_BOQNAME_warns", in: edit(healthy(), func(in *LintInput) {
			in.Queues = append(in.Queues, mqwatch.QueueInfo{Name: "SUBS.MODEL", Type: mqwatch.QModel, BackoutThresh: 2, MaxDepth: 5000, MaxMsgLen: mb4})
		}), sev: Warning, rule: "R2c", queue: "SUBS.MODEL", fix: []string{"DEFINE QLOCAL(SUBS.MODEL.BO) MAXDEPTH(5000) MAXMSGL(4194340)", "ALTER QMODEL(SUBS.MODEL) BOTHRESH(2) BOQNAME(SUBS.MODEL.BO)"}},
		{name: "R8c_stuck_poison_on_input_queue_is_critical", in: edit(healthy(), func(in *LintInput) {
			in.MaxBackoutSeen = map[string]int32{"ORDERS.IN": 212}
		}), sev: Critical, rule: "R8c", queue: "ORDERS.IN", why: "BackoutCount 212 >= BOTHRESH 3"},
	})
}

func TestLintBackoutQueues(t *testing.T) {
	runLintCases(t, []lintCase{
		{name: "R8b_missing_BOQ_is_critical", in: edit(healthy(), func(in *LintInput) { in.Queues = append(in.Queues, lq("PAY.IN", 5, "PAY.BO")) }),
			sev: Critical, rule: "R8b", queue: "PAY.BO", why: "BOQNAME of PAY.IN, but no such queue", fix: []string{"DEFINE QLOCAL(PAY.BO) MAXDEPTH(5000) MAXMSGL(4194340)"}},
		{name: "R8b_BOQ_alias_is_not_local", in: edit(healthy(), func(in *LintInput) {
			in.Queues = append(in.Queues, lq("PAY.IN", 5, "PAY.BO.ALIAS"), mqwatch.QueueInfo{Name: "PAY.BO.ALIAS", Type: mqwatch.QAlias, Target: "ORDERS.BO"})
		}), sev: Warning, rule: "R8b", queue: "PAY.BO.ALIAS", why: "is a QALIAS, not a local queue"},
		{name: "R8b_BOQ_remote_definition_is_not_local", in: edit(healthy(), func(in *LintInput) {
			in.Queues = append(in.Queues, lq("PAY.IN", 5, "PAY.BO.R"), mqwatch.QueueInfo{Name: "PAY.BO.R", Type: mqwatch.QRemote})
		}), sev: Warning, rule: "R8b", queue: "PAY.BO.R", why: "is a QREMOTE"},
		{name: "R8b_BOQ_put_inhibited_is_critical", in: edit(healthy(), func(in *LintInput) {
			setQueue(in, "ORDERS.BO", func(q *mqwatch.QueueInfo) { q.InhibitPut = true })
		}), sev: Critical, rule: "R8b", queue: "ORDERS.BO", why: "PUT(DISABLED)", fix: []string{"ALTER QLOCAL(ORDERS.BO) PUT(ENABLED)"}},
		{name: "R8b_BOQ_full_is_critical", in: edit(healthy(), func(in *LintInput) { setStatus(in, "ORDERS.BO", 5000) }),
			sev: Critical, rule: "R8b", queue: "ORDERS.BO", why: "is full (5000 of MAXDEPTH 5000)", fix: []string{"ALTER QLOCAL(ORDERS.BO) MAXDEPTH(10000)"}},
		{name: "R8b_BOQ_near_full_warns", in: edit(healthy(), func(in *LintInput) { setStatus(in, "ORDERS.BO", 4500) }),
			sev: Warning, rule: "R8b", queue: "ORDERS.BO", why: "near MAXDEPTH"},
		{name: "R8b_BOQ_MAXMSGL_smaller_than_input_warns", in: edit(healthy(), func(in *LintInput) {
			setQueue(in, "ORDERS.BO", func(q *mqwatch.QueueInfo) { q.MaxMsgLen = 1024 })
		}), sev: Warning, rule: "R8b", queue: "ORDERS.BO", why: "once R5b adds its 36-byte MQRFH2", fix: []string{"ALTER QMGR MAXMSGL(4194340)", "ALTER QLOCAL(ORDERS.BO) MAXMSGL(4194340)"}},
		{name: "R8b_BOQ_MAXMSGL_short_by_the_header_only_is_grouped_info", in: edit(healthy(), func(in *LintInput) {
			setQueue(in, "ORDERS.BO", func(q *mqwatch.QueueInfo) { q.MaxMsgLen = mb4 })
		}), sev: Info, rule: "R8b", queue: "", why: "MAXMSGL of ORDERS.BO only equals that of the queues feeding them", fix: []string{"ALTER QMGR MAXMSGL(4194340)", "ALTER QLOCAL(ORDERS.BO) MAXMSGL(4194340)"}},
		{name: "R8b_shared_BOQ_reports_once_naming_every_user", in: edit(healthy(), func(in *LintInput) {
			in.Queues = append(in.Queues, lq("INVOICES.IN", 3, "ORDERS.BO"))
			setStatus(in, "ORDERS.BO", 5000)
		}), sev: Critical, rule: "R8b", queue: "ORDERS.BO", why: "BOQ of INVOICES.IN, ORDERS.IN is full"},
		{name: "R8b_BOQ_with_its_own_BOTHRESH_is_info", in: edit(healthy(), func(in *LintInput) {
			setQueue(in, "ORDERS.BO", func(q *mqwatch.QueueInfo) { q.BackoutThresh, q.BackoutQName = 3, "ORDERS.BO2" })
		}), sev: Info, rule: "R8b", queue: "ORDERS.BO", why: "own BOTHRESH 3"},
	})
}

func TestLintConsumers(t *testing.T) {
	runLintCases(t, []lintCase{
		{name: "R9a_delivery_count_threshold_above_64_warns", in: edit(healthy(), func(in *LintInput) {
			in.Consumers = []ConsumerView{{ID: "mdb-1", Queue: "ORDERS.IN", Style: DeliveryCount, Policy: DeliveryCountPolicy{Threshold: 100}}}
		}), sev: Warning, rule: "R9a", queue: "ORDERS.IN", why: "mdb-1 uses delivery-count threshold 100"},
		{name: "R9c_paused_MDB_with_backlog_is_critical", in: edit(healthy(), func(in *LintInput) {
			in.Consumers = []ConsumerView{{ID: "mdb-1", Queue: "ORDERS.IN", Style: DeliveryCount, Paused: true}}
		}), sev: Critical, rule: "R9c", queue: "ORDERS.IN", why: "paused by maxDeliveryFailures with 10 messages waiting"},
		{name: "R1b_consumer_with_stale_cached_attributes_warns", in: edit(healthy(), func(in *LintInput) {
			in.Consumers = []ConsumerView{{ID: "orders-app", Queue: "ORDERS.IN", Style: Async, Cached: &CachedAttrs{}}}
		}), sev: Warning, rule: "R1b", queue: "ORDERS.IN", why: "orders-app cached BOTHRESH 0 BOQNAME (blank); the queue now has BOTHRESH 3 BOQNAME ORDERS.BO"},
		{name: "R1f_plain_MQI_consumer_warns", in: edit(healthy(), func(in *LintInput) {
			in.Consumers = []ConsumerView{{ID: "payments-c", Queue: "ORDERS.IN", Style: MQI}}
		}), sev: Warning, rule: "R1f", queue: "ORDERS.IN", why: "never acts on BOTHRESH"},
	})
}

func TestLintCachedAttributesMatchingQueueGiveNoFinding(t *testing.T) {
	in := edit(healthy(), func(in *LintInput) {
		in.Consumers = []ConsumerView{{Queue: "ORDERS.IN", Style: SyncTransacted, Cached: &CachedAttrs{BackoutThresh: 3, BackoutQName: "ORDERS.BO"}}}
	})
	if got := Lint(in); len(got) != 0 {
		t.Errorf("findings: %v", got)
	}
}

func TestLintOrdersMostSevereFirst(t *testing.T) {
	in := edit(healthy(), func(in *LintInput) {
		in.Queues = append(in.Queues, lq("PAY.IN", 5, ""))   // warning R2c
		in.MaxBackoutSeen = map[string]int32{"ORDERS.IN": 9} // critical R8c
		in.Status = append(in.Status, mqwatch.QueueStatus{Name: "PAY.IN", OpenInput: 1})
	})
	got := Lint(in)
	if len(got) < 2 || got[0].Severity != Critical || got[len(got)-1].Severity > got[0].Severity {
		t.Errorf("order:\n%s", findingsText(got))
	}
}

func findingsText(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.String())
		b.WriteString(" ")
		b.WriteString(strings.Join(f.Fix, " / "))
		b.WriteString("\n")
	}
	return b.String()
}

func TestLintR8aDeadQMaxMsgLenCountsOnlyWhatTheQueueManagerAllows(t *testing.T) {
	in := edit(healthy(), func(in *LintInput) {
		big := lq("IMAGES.IN", 0, "")
		big.MaxMsgLen = 10 * 1024 * 1024 // above the queue manager's 4 MB: no message can be that long
		in.Queues = append(in.Queues, big)
	})
	if got := Lint(in); len(got) != 0 {
		t.Errorf("findings: %v", got)
	}
}

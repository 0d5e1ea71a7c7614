package embedded

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestRunMQSCDeveloperContainerScript loads IBM's mq-container developer
// script and checks the outcome SOURCES.md lists for it.
func TestRunMQSCDeveloperContainerScript(t *testing.T) {
	checks := []struct {
		name  string
		check func(*testing.T, *fixture, Report)
	}{
		{"queues_model_and_dead_letter_queue_exist", devQueuesModelAndDeadLetterQueueExist},
		{"topic_is_defined_with_its_topic_string", devTopicIsDefinedWithItsTopicString},
		{"channel_security_commands_are_reported_not_modelled", devChannelSecurityCommandsAreReportedNotModelled},
		{"app_user_may_use_DEV_queues", devAppUserMayUseDevQueues},
		{"app_user_lacks_passall_so_a_context_passing_requeue_fails_2035", devAppUserLacksPassallSoAContextPassingRequeueFails2035},
		{"app_user_has_no_authority_outside_DEV_profiles", devAppUserHasNoAuthorityOutsideDevProfiles},
		{"app_user_may_open_the_model_queue", devAppUserMayOpenTheModelQueue},
		{"unknown_user_cannot_connect", devUnknownUserCannotConnect},
	}
	script, err := os.ReadFile("testdata/10-dev.mqsc")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, "")
			rep, err := f.qm.RunMQSC(strings.NewReader(string(script)))
			if err != nil {
				t.Fatalf("RunMQSC: %v\n%s", err, rep)
			}
			c.check(t, f, rep)
		})
	}
}

func devQueuesModelAndDeadLetterQueueExist(t *testing.T, f *fixture, rep Report) {
	admin := f.connect("")
	want := map[string]mqwatch.QueueType{"DEV.QUEUE.1": mqwatch.QLocal, "DEV.QUEUE.2": mqwatch.QLocal,
		"DEV.QUEUE.3": mqwatch.QLocal, "DEV.DEAD.LETTER.QUEUE": mqwatch.QLocal, "DEV.APP.MODEL.QUEUE": mqwatch.QModel}
	qs, err := admin.Queues(f.ctx, "DEV.*")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]mqwatch.QueueType{}
	for _, q := range qs {
		got[q.Name] = q.Type
	}
	if len(got) != len(want) {
		t.Fatalf("queues = %v, want %v", got, want)
	}
	for n, typ := range want {
		if got[n] != typ {
			t.Errorf("%s: type %v, want %v", n, got[n], typ)
		}
	}
	info, err := admin.QMgr(f.ctx)
	if err != nil || info.DeadQ != "DEV.DEAD.LETTER.QUEUE" {
		t.Fatalf("DEADQ = %q, %v", info.DeadQ, err)
	}
}

func devTopicIsDefinedWithItsTopicString(t *testing.T, f *fixture, rep Report) {
	if tp := f.qm.topics["DEV.BASE.TOPIC"]; tp == nil || tp.topicStr != "dev/" {
		t.Fatalf("DEV.BASE.TOPIC = %+v", tp)
	}
}

func devChannelSecurityCommandsAreReportedNotModelled(t *testing.T, f *fixture, rep Report) {
	var kinds []string
	for _, r := range rep.NotModelled() {
		kinds = append(kinds, r.Command)
	}
	want := []string{"DEFINE AUTHINFO", "REFRESH SECURITY", "DEFINE CHANNEL", "DEFINE CHANNEL",
		"SET CHLAUTH", "SET CHLAUTH", "SET CHLAUTH", "SET CHLAUTH", "SET CHLAUTH"}
	if !slices.Equal(kinds, want) {
		t.Fatalf("not modelled = %q, want %q", kinds, want)
	}
	if len(rep.Results) != 21 || len(rep.Failed()) != 0 {
		t.Fatalf("%d results, %d failed", len(rep.Results), len(rep.Failed()))
	}
	connauth := rep.Results[8]
	if connauth.Command != "ALTER QMGR" || !slices.Equal(connauth.Ignored, []string{"CONNAUTH"}) {
		t.Fatalf("ALTER QMGR CONNAUTH result = %+v", connauth)
	}
}

func devAppUserMayUseDevQueues(t *testing.T, f *fixture, rep Report) {
	app := f.connect("app")
	q, err := app.Open(f.ctx, mqwatch.ObjectDesc{Name: "DEV.QUEUE.1"},
		mqwatch.OpenOptions{Input: true, Browse: true, Output: true, Inquire: true})
	if err != nil {
		t.Fatal(err)
	}
	f.put(q, "hello", -1, false)
	if got := f.get(q, mqwatch.GetOptions{}); got != "hello" {
		t.Fatalf("got %q", got)
	}
	if _, err := app.QMgr(f.ctx); err != nil {
		t.Fatalf("QMgr as app (INQ on QMGR): %v", err)
	}
}

func devAppUserLacksPassallSoAContextPassingRequeueFails2035(t *testing.T, f *fixture, rep Report) {
	app := f.connect("app")
	_, err := app.Open(f.ctx, mqwatch.ObjectDesc{Name: "DEV.QUEUE.1"},
		mqwatch.OpenOptions{Output: true, PassAllContext: true})
	wantRC(t, err, mqfmt.RCNotAuthorized)
	_, err = app.Open(f.ctx, mqwatch.ObjectDesc{Name: "DEV.QUEUE.1"},
		mqwatch.OpenOptions{Output: true, SetAllContext: true})
	wantRC(t, err, mqfmt.RCNotAuthorized)
}

func devAppUserHasNoAuthorityOutsideDevProfiles(t *testing.T, f *fixture, rep Report) {
	app := f.connect("app")
	_, err := app.Open(f.ctx, mqwatch.ObjectDesc{Name: "SYSTEM.DEFAULT.LOCAL.QUEUE"}, mqwatch.OpenOptions{Browse: true})
	wantRC(t, err, mqfmt.RCNotAuthorized)
	_, err = app.Queues(f.ctx, "DEV.QUEUE.1")
	wantRC(t, err, mqfmt.RCNotAuthorized) // no DSP on DEV.** queues
}

func devAppUserMayOpenTheModelQueue(t *testing.T, f *fixture, rep Report) {
	app := f.connect("app")
	q, err := app.Open(f.ctx, mqwatch.ObjectDesc{Name: "DEV.APP.MODEL.QUEUE", DynamicName: "APP.*"}, inOut)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(q.Name(), "APP.") {
		t.Fatalf("dynamic name %q", q.Name())
	}
	f.put(q, "reply", -1, false)
}

func devUnknownUserCannotConnect(t *testing.T, f *fixture, rep Report) {
	_, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{User: "mallory"})
	wantRC(t, err, mqfmt.RCNotAuthorized)
}

func TestRunMQSCOutcomes(t *testing.T) {
	tests := []struct {
		name    string
		setup   string
		script  string
		outcome Outcome
		message string
	}{
		{"define of an existing queue without REPLACE fails", "DEFINE QLOCAL(A)", "DEFINE QLOCAL(A)", Failed, "AMQ8150E"},
		{"define over a queue of another type fails even with REPLACE", "DEFINE QALIAS(A) TARGET(X)", "DEFINE QLOCAL(A) REPLACE", Failed, "AMQ8150E"},
		{"alter of a missing queue fails", "", "ALTER QLOCAL(NOPE) MAXDEPTH(1)", Failed, "AMQ8147E"},
		{"alter of a queue through the wrong type fails", "DEFINE QLOCAL(A)", "ALTER QALIAS(A) TARGET(B)", Failed, "AMQ8147E"},
		{"LIKE of a missing queue fails", "", "DEFINE QLOCAL(A) LIKE(NOPE)", Failed, "AMQ8147E"},
		{"define creates a queue", "", "DEF QL(A)", Applied, "AMQ8006I"},
		{"alter changes a queue", "DEFINE QLOCAL(A)", "ALT QL(A) PUT(DISABLED)", Applied, "AMQ8008I"},
		{"delete removes an empty queue", "DEFINE QLOCAL(A)", "DELETE QLOCAL(A)", Applied, "AMQ8007I"},
		{"clear empties a queue", "DEFINE QLOCAL(A)", "CLEAR QLOCAL(A)", Applied, "AMQ8022I"},
		{"alter qmgr", "", "ALTER QMGR DEADQ(DLQ) MAXUMSGS(5)", Applied, "AMQ8005I"},
		{"set authrec", "", "SET AUTHREC PROFILE(A.**) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET)", Applied, "AMQ8862I"},
		{"authrec needs a principal or a group", "", "SET AUTHREC PROFILE(A) OBJTYPE(QUEUE) AUTHADD(GET)", Failed, "PRINCIPAL"},
		{"authrec for channels is not modelled", "", "SET AUTHREC PROFILE(C) OBJTYPE(CHANNEL) PRINCIPAL('b') AUTHADD(DSP)", NotModelled, "not modelled"},
		{"topic needs a topic string", "", "DEFINE TOPIC(T)", Failed, "TOPICSTR"},
		{"two topics cannot share a topic string", "DEFINE TOPIC(T1) TOPICSTR('a/b')", "DEFINE TOPIC(T2) TOPICSTR('a/b')", Failed, "already"},
		{"display is accepted and not modelled", "", "DISPLAY QLOCAL(*)", NotModelled, "not model"},
		{"SHAREDYN is z/OS only", "", "DEFINE QMODEL(M) DEFTYPE(SHAREDYN)", Failed, "z/OS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.setup)
			rep, _ := f.qm.RunMQSC(strings.NewReader(tt.script))
			if len(rep.Results) != 1 {
				t.Fatalf("results: %+v", rep.Results)
			}
			r := rep.Results[0]
			if r.Outcome != tt.outcome || !strings.Contains(r.Message, tt.message) {
				t.Fatalf("got %v %q, want %v containing %q", r.Outcome, r.Message, tt.outcome, tt.message)
			}
		})
	}
}

func TestRunMQSCDeleteRules(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(A)")
	c := f.connect("")
	q := f.open(c, "A", inOut)
	f.put(q, "x", -1, false)
	run := func(s string) Result {
		rep, _ := f.qm.RunMQSC(strings.NewReader(s))
		return rep.Results[0]
	}
	if r := run("DELETE QLOCAL(A) PURGE"); r.Outcome != Failed || !strings.Contains(r.Message, "AMQ8148E") {
		t.Fatalf("delete of an open queue: %+v", r)
	}
	if r := run("CLEAR QLOCAL(A)"); r.Outcome != Failed {
		t.Fatalf("clear of an open queue: %+v", r)
	}
	if err := q.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	if r := run("DELETE QLOCAL(A)"); r.Outcome != Failed || !strings.Contains(r.Message, "AMQ8143E") {
		t.Fatalf("delete of a non-empty queue without PURGE: %+v", r)
	}
	if r := run("DELETE QLOCAL(A) PURGE"); r.Outcome != Applied {
		t.Fatalf("delete with PURGE: %+v", r)
	}
	_, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: "A"}, outOnly)
	wantRC(t, err, mqfmt.RCUnknownObjectName)
}

func TestRunMQSCSyntaxErrorAppliesNothing(t *testing.T) {
	f := newFixture(t, "")
	_, err := f.qm.RunMQSC(strings.NewReader("DEFINE QLOCAL(A)\nDEFINE QLOCAL(B) FOO(1)\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2: unknown attribute FOO for QLOCAL") {
		t.Fatalf("err = %v", err)
	}
	if f.qm.queues["A"] != nil {
		t.Fatal("queue A was defined despite the syntax error")
	}
}

func TestRunMQSCFailuresAreSummarisedAndLaterCommandsRun(t *testing.T) {
	f := newFixture(t, "")
	rep, err := f.qm.RunMQSC(strings.NewReader("ALTER QLOCAL(NOPE) PUT(DISABLED)\nDEFINE QLOCAL(B)\n"))
	var re *RunError
	if !errors.As(err, &re) || re.Failed != 1 || re.Total != 2 || re.First.Line != 1 {
		t.Fatalf("err = %v", err)
	}
	if f.qm.queues["B"] == nil || rep.Results[1].Outcome != Applied {
		t.Fatal("command after the failure did not run")
	}
	if !strings.Contains(rep.String(), "1 commands failed") {
		t.Fatalf("report:\n%s", rep)
	}
}

func TestDefineTakesDefaultsFromSystemDefaultObjects(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(PLAIN)\nALTER QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE) MAXDEPTH(42)\n"+
		"DEFINE QLOCAL(AFTER)\nDEFINE QLOCAL(COPY) LIKE(PLAIN) DESCR('copy')\nDEFINE QMODEL(M)")
	want := mqwatch.QueueInfo{Name: "PLAIN", Type: mqwatch.QLocal, MaxDepth: 5000, MaxMsgLen: 4194304,
		HardenBackout: true, Shareable: true, Monitoring: mqwatch.MonQMgr, DefType: mqwatch.Predefined, TriggerType: "FIRST"}
	if got := f.qm.queues["PLAIN"].info(); got != want {
		t.Errorf("PLAIN = %+v\nwant    %+v", got, want)
	}
	if got := f.qm.queues["AFTER"].attrs.MaxDepth; got != 42 {
		t.Errorf("AFTER MAXDEPTH = %d, want 42 from the altered default object", got)
	}
	if got := f.qm.queues["COPY"].attrs; got.MaxDepth != 5000 || got.Descr != "copy" {
		t.Errorf("COPY = %+v", got)
	}
	if got := f.qm.queues["M"].attrs.DefType; got != mqwatch.TemporaryDynamic {
		t.Errorf("model DEFTYPE = %v, want TEMPDYN", got)
	}
}

func TestDefineReplaceResetsUnspecifiedAttributesAndKeepsMessages(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(A) BOTHRESH(3) BOQNAME(A.BO)")
	c := f.connect("")
	q := f.open(c, "A", inOut)
	f.put(q, "kept", -1, false)
	if _, err := f.qm.RunMQSC(strings.NewReader("DEFINE QLOCAL(A) MAXDEPTH(10) REPLACE")); err != nil {
		t.Fatal(err)
	}
	a := f.qm.queues["A"].attrs
	if a.BackoutThresh != 0 || a.BackoutQName != "" || a.MaxDepth != 10 {
		t.Fatalf("attrs after REPLACE = %+v", a)
	}
	if got := f.get(q, mqwatch.GetOptions{}); got != "kept" {
		t.Fatalf("message after REPLACE: %q", got)
	}
}

func TestBlankNameAttributesAreBlank(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(DLQ)\nALTER QMGR DEADQ(DLQ) DEFXMITQ(DLQ)\nALTER QMGR DEADQ(' ') DEFXMITQ(' ')\nDEFINE QREMOTE(QMA) RNAME(' ') RQMNAME(QM2)")
	if f.qm.attrs.deadQ != "" || f.qm.attrs.defXmitQ != "" || f.qm.queues["QMA"].attrs.RemoteName != "" {
		t.Fatalf("DEADQ %q DEFXMITQ %q RNAME %q, want all blank", f.qm.attrs.deadQ, f.qm.attrs.defXmitQ, f.qm.queues["QMA"].attrs.RemoteName)
	}
}

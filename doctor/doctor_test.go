package doctor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

const baseMQSC = `ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)
DEFINE QLOCAL(APP.IN) BOTHRESH(3) BOQNAME(APP.IN.BOQ)
DEFINE QLOCAL(APP.IN.BOQ)
`

// newQM runs mqsc on a new embedded queue manager run by mqadmin, with its
// command server when cmdServer is set.
func newQM(t *testing.T, mqsc string, cmdServer bool) *embeddedtest.QM {
	t.Helper()
	return embeddedtest.New(t, embeddedtest.Options{Name: "QM1", ProcessUser: "mqadmin", MQSC: mqsc, CommandServer: cmdServer})
}

func target(qm mqwatch.Connector, user string) Target {
	return Target{Name: "QM1", Connector: qm, Connect: mqwatch.ConnectOptions{ApplName: "poisonwatch doctor", User: user},
		Principal: user, Settings: Check{Name: "connection", OK: true, Why: "embedded"}, Wait: 2 * time.Second}
}

func find(t *testing.T, r Report, prefix string) Check {
	t.Helper()
	for _, c := range r.Checks {
		if strings.HasPrefix(c.Name, prefix) {
			return c
		}
	}
	t.Fatalf("no check %q in %+v", prefix, r.Checks)
	return Check{}
}

func TestDoctorAdministratorIsAllGreen(t *testing.T) {
	qm := newQM(t, baseMQSC, true)
	r := Run(context.Background(), target(qm, ""))
	if r.Exit != ExitOK {
		t.Fatalf("exit %d, problems %v", r.Exit, r.Problems())
	}
	if r.User != "mqadmin" {
		t.Errorf("user %q, want the user DISPLAY CONN names (mqadmin)", r.User)
	}
	if c := find(t, r, "command server"); !strings.Contains(c.Why, "MQCMD_PING_Q_MGR answered") {
		t.Errorf("command server: %q", c.Why)
	}
}

// TestDoctorRestrictedAuthrecsGiveExactGrants: app1 may connect and run
// the dashboard's PCF but lacks the rest; each missing authority comes with
// the setmqaut and SET AUTHREC lines for exactly what is missing.
func TestDoctorRestrictedAuthrecsGiveExactGrants(t *testing.T) {
	qm := newQM(t, baseMQSC+`SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app1') AUTHADD(CONNECT,INQ,DSP)
SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(PUT)
SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(GET,INQ)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(BROWSE,DSP,GET,PUT)
`, true)
	r := Run(context.Background(), target(qm, "app1"))
	if r.Exit != ExitDegraded {
		t.Fatalf("exit %d, want %d", r.Exit, ExitDegraded)
	}
	if r.User != "app1" {
		t.Errorf("user %q", r.User)
	}
	tests := []struct {
		check string
		ok    bool
		fix   []string
	}{
		{"command server", true, nil},
		{"dashboard: inquire and display the queue manager", true, nil},
		{"dashboard: display and browse a BOQ", true, nil},
		{"dashboard: display and browse the DEADQ", false, []string{
			"setmqaut -m QM1 -t q -n SYSTEM.DEAD.LETTER.QUEUE -p app1 +browse +dsp",
			"SET AUTHREC PROFILE('SYSTEM.DEAD.LETTER.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(BROWSE,DSP)"}},
		{"actions: requeue with the original context", false, []string{
			"setmqaut -m QM1 -t q -n APP.IN -p app1 +setall",
			"SET AUTHREC PROFILE('APP.IN') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(SETALL)"}},
		{"actions: set all context", false, []string{
			"setmqaut -m QM1 -t qmgr -p app1 +setall +altusr",
			"SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app1') AUTHADD(SETALL,ALTUSR)"}},
		{"object changes: define a parking queue: create a queue", false, []string{
			"setmqaut -m QM1 -t q -n @class -p app1 +crt",
			"SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(CRT)"}},
	}
	for _, tt := range tests {
		c := find(t, r, tt.check)
		if c.OK != tt.ok || len(c.Fix) != len(tt.fix)*3 || (len(tt.fix) > 0 && !slices.Equal(c.Fix[1:3], tt.fix)) {
			t.Errorf("%s: ok %v why %q fix %q; want ok %v fix %q", tt.check, c.OK, c.Why, c.Fix, tt.ok, tt.fix)
		}
	}
}

// TestDoctorGrantsMakeItGreen applies the doctor's own SET AUTHREC lines
// and runs it again: everything passes, so the lines grant what they say.
func TestDoctorGrantsMakeItGreen(t *testing.T) {
	mqsc := baseMQSC + `SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app1') AUTHADD(CONNECT,DSP)
SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(PUT)
SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(GET,INQ)
`
	r := Run(context.Background(), target(newQM(t, mqsc, true), "app1"))
	var fixes []string
	for _, c := range r.Checks {
		for _, f := range c.Fix {
			if strings.HasPrefix(f, "SET AUTHREC") {
				fixes = append(fixes, f)
			}
		}
	}
	if len(fixes) == 0 {
		t.Fatal("no fixes offered")
	}
	r = Run(context.Background(), target(newQM(t, mqsc+strings.Join(fixes, "\n")+"\n", true), "app1"))
	if r.Exit != ExitOK {
		t.Fatalf("after the grants: exit %d, problems %v", r.Exit, r.Problems())
	}
}

// TestDoctorProbesWhenEntityAuthIsRefused: without dsp on the queue
// manager DISPLAY ENTAUTH is refused (2035); the MQI authorities are then
// found by opening each queue, and the rest are unknown, not failed.
func TestDoctorProbesWhenEntityAuthIsRefused(t *testing.T) {
	qm := newQM(t, baseMQSC+`SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app1') AUTHADD(CONNECT,INQ)
SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(PUT)
SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(GET,INQ)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(BROWSE,GET,DSP)
`, true)
	r := Run(context.Background(), target(qm, "app1"))
	c := find(t, r, "authority inquiry")
	if c.OK || !slices.Contains(c.Fix, "setmqaut -m QM1 -t qmgr -p app1 +dsp") {
		t.Errorf("authority inquiry: %+v", c)
	}
	if c := find(t, r, "actions: take messages off a BOQ"); !c.OK || c.Unknown {
		t.Errorf("BOQ get found by opening: %+v", c)
	}
	if c := find(t, r, "actions: take messages off the DEADQ"); c.OK {
		t.Errorf("DEADQ get is missing: %+v", c)
	}
	if c := find(t, r, "object changes: define a parking queue: create"); !c.OK || !c.Unknown {
		t.Errorf("chg cannot be probed: %+v", c)
	}
}

// TestDoctorConnectFailures: the reason of a failed MQCONNX is named and
// explained, with what it usually means; the run ends with exit 2.
func TestDoctorConnectFailures(t *testing.T) {
	tests := []struct {
		name   string
		rc     mqfmt.Reason
		client bool
		want   []string
		fix    string
	}{
		{"2035_bindings", mqfmt.RCNotAuthorized, false, []string{"+connect"}, "setmqaut -m QM1 -t qmgr -p app1 +connect"},
		{"2035_client", mqfmt.RCNotAuthorized, true, []string{"CHLAUTH", "CONNAUTH", "MCAUSER"}, ""},
		{"2059_client", mqfmt.RCQMgrNotAvailable, true, []string{"listener"}, ""},
		{"2058", mqfmt.RCQMgrNameError, true, []string{"dspmq", "*GROUP"}, ""},
		{"2393_tls", 2393, true, []string{"key repository", "MQKEYRPWD", ".sth"}, ""},
		{"2538_host", mqfmt.RCHostNotAvailable, true, []string{"firewall"}, ""},
		{"2009_broken", mqfmt.RCConnectionBroken, true, []string{"SSLCIPH", "MAXINST"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qm := newQM(t, baseMQSC, false)
			qm.Faults().Add(embedded.Fault{Verb: embedded.VerbConnect, RC: tt.rc})
			tg := target(qm, "app1")
			tg.Client = tt.client
			r := Run(context.Background(), tg)
			if r.Exit != ExitNoConnection {
				t.Fatalf("exit %d", r.Exit)
			}
			c := find(t, r, "MQCONNX")
			if c.OK || !strings.HasPrefix(c.Why, tt.rc.String()) {
				t.Errorf("why %q, want it to start with %s", c.Why, tt.rc)
			}
			all := strings.Join(c.Details, " ")
			for _, w := range tt.want {
				if !strings.Contains(all, w) {
					t.Errorf("hints %q lack %q", all, w)
				}
			}
			if tt.fix != "" && !slices.Contains(c.Fix, tt.fix) {
				t.Errorf("fix %q, want %q", c.Fix, tt.fix)
			}
		})
	}
}

// TestDoctorNoConnectAuthority: a real 2035 from the embedded OAM.
func TestDoctorNoConnectAuthority(t *testing.T) {
	r := Run(context.Background(), target(newQM(t, baseMQSC, true), "nobody1"))
	c := find(t, r, "MQCONNX")
	if r.Exit != ExitNoConnection || !slices.Contains(c.Fix, "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('nobody1') AUTHADD(CONNECT)") {
		t.Errorf("exit %d, %+v", r.Exit, c)
	}
}

// TestDoctorCommandServerNotRunning: the ping gets no answer within the
// wait; the check says how to start it and the exit is 1.
func TestDoctorCommandServerNotRunning(t *testing.T) {
	tg := target(newQM(t, baseMQSC, false), "")
	tg.Wait = 300 * time.Millisecond
	r := Run(context.Background(), tg)
	c := find(t, r, "command server")
	if c.OK || r.Exit != ExitDegraded || !strings.Contains(strings.Join(c.Details, " "), "strmqcsv") {
		t.Errorf("exit %d, %+v", r.Exit, c)
	}
}

func TestDoctorBadSettingsEndTheRun(t *testing.T) {
	tg := target(newQM(t, baseMQSC, false), "")
	tg.Settings = Check{Name: "connection", Why: "a client channel needs both --channel and --conn"}
	r := Run(context.Background(), tg)
	if r.Exit != ExitNoConnection || len(r.Checks) != 1 {
		t.Errorf("exit %d, checks %+v", r.Exit, r.Checks)
	}
}

// TestDoctorCountsGroupAuthorities: authority held through a group counts,
// as the OAM adds a principal's groups up.
func TestDoctorCountsGroupAuthorities(t *testing.T) {
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", ProcessUser: "mqadmin", Groups: map[string][]string{"app1": {"apps"}},
		CommandServer: true, MQSC: baseMQSC + `SET AUTHREC OBJTYPE(QMGR) GROUP('apps') AUTHADD(CONNECT,INQ,DSP,SETALL,ALTUSR)
SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(PUT)
SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(GET,INQ)
SET AUTHREC PROFILE('**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(BROWSE,DSP,GET,PUT,SETALL,CHG)
SET AUTHREC PROFILE('@class') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(CRT)
`})
	if r := Run(context.Background(), target(qm, "app1")); r.Exit != ExitOK {
		t.Errorf("exit %d: %v", r.Exit, r.Problems())
	}
}

// TestDoctorFoldsManyPassingQueues: with many input queues the passing
// checks of one kind are one line; a queue that lacks something keeps its own.
func TestDoctorFoldsManyPassingQueues(t *testing.T) {
	var b strings.Builder
	b.WriteString(baseMQSC)
	for i := range 10 {
		fmt.Fprintf(&b, "DEFINE QLOCAL(APP.Q%d) BOQNAME(APP.IN.BOQ) BOTHRESH(3)\n", i)
	}
	b.WriteString(`SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app1') AUTHADD(CONNECT,INQ,DSP)
SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(PUT)
SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(GET,INQ)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(DSP,PUT,SETALL)
SET AUTHREC PROFILE('APP.Q7') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(DSP)
`)
	qm := newQM(t, b.String(), true)
	r := Run(context.Background(), target(qm, "app1"))
	var dsp, put []Check
	for _, c := range r.Checks {
		switch c.Name {
		case "dashboard: display an input queue":
			dsp = append(dsp, c)
		case "actions: requeue with the original context":
			put = append(put, c)
		}
	}
	if len(dsp) != 1 || dsp[0].Why != "app1 holds what is needed on 11 queues" {
		t.Errorf("display checks %+v", dsp)
	}
	if len(put) != 2 || put[0].Why != "app1 holds what is needed on 10 queues" ||
		put[1].OK || !slices.Contains(put[1].Fix, "setmqaut -m QM1 -t q -n APP.Q7 -p app1 +put +setall") {
		t.Errorf("requeue checks %+v", put)
	}
}

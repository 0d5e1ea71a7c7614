package embedded

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestGenericProfiles(t *testing.T) {
	tests := []struct {
		profile, name string
		want          bool
	}{
		{"DEV.**", "DEV.QUEUE.1", true},
		{"DEV.**", "DEV", true},
		{"DEV.**", "DEVX.Q", false},
		{"**", "ANY.THING", true},
		{"**.BO", "ORDERS.IN.BO", true},
		{"**.BO", "BO", true},
		{"A.**.Z", "A.Z", true},
		{"A.**.Z", "A.B.C.Z", true},
		{"A.**.Z", "A.B.C", false},
		{"ORDERS.*", "ORDERS.IN", true},
		{"ORDERS.*", "ORDERS.IN.BO", false},
		{"ORDERS.?N", "ORDERS.IN", true},
		{"ORDERS.?N", "ORDERS.OUT", false},
		{"*", "Q", true},
		{"*", "A.B", false},
		{"EXACT.NAME", "EXACT.NAME", true},
		{"EXACT.NAME", "EXACT.NAMES", false},
		{"A+B.*", "A+B.X", true},
	}
	for _, tt := range tests {
		r := &authRec{profile: tt.profile}
		var err error
		r.re, r.rank, err = compileProfile(tt.profile)
		if err != nil {
			t.Fatalf("%s: %v", tt.profile, err)
		}
		if got := r.matches(tt.name); got != tt.want {
			t.Errorf("profile %q vs %q = %v, want %v", tt.profile, tt.name, got, tt.want)
		}
	}
}

func TestAuthority(t *testing.T) {
	f := newFixture(t, `DEFINE QLOCAL(ORDERS.IN)
DEFINE QLOCAL(ORDERS.ARCHIVE.OLD)
DEFINE QLOCAL(ORDERS.BO)
DEFINE QALIAS(ORDERS) TARGET(ORDERS.IN)
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT,INQ)
SET AUTHREC OBJTYPE(QMGR) GROUP('readers') AUTHADD(CONNECT)
SET AUTHREC PROFILE('ORDERS.**') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(BROWSE,INQ,DSP)
SET AUTHREC PROFILE('ORDERS.BO') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)
SET AUTHREC PROFILE('ORDERS') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT,PASSALL)
SET AUTHREC PROFILE('ORDERS.*') OBJTYPE(QUEUE) GROUP('readers') AUTHADD(BROWSE,DSP)
SET AUTHREC PROFILE('ORDERS.IN') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET) AUTHRMV(GET)`)
	tests := []struct {
		name string
		user string
		obj  string
		opts mqwatch.OpenOptions
		rc   mqfmt.Reason
	}{
		{"generic profile grants browse", "bob", "ORDERS.ARCHIVE.OLD", mqwatch.OpenOptions{Browse: true}, 0},
		{"a specific profile beats a generic one even with fewer authorities", "bob", "ORDERS.IN", mqwatch.OpenOptions{Browse: true}, mqfmt.RCNotAuthorized},
		{"AUTHRMV takes away what AUTHADD gave", "bob", "ORDERS.IN", mqwatch.OpenOptions{Input: true}, mqfmt.RCNotAuthorized},
		{"ORDERS.BO's specific profile grants put only", "bob", "ORDERS.BO", mqwatch.OpenOptions{Browse: true}, mqfmt.RCNotAuthorized},
		{"put on the specific profile", "bob", "ORDERS.BO", outOnly, 0},
		{"authority is checked on the alias, not its base", "bob", "ORDERS", mqwatch.OpenOptions{Output: true, PassAllContext: true}, 0},
		{"passall missing on the base queue", "bob", "ORDERS.BO", mqwatch.OpenOptions{Output: true, PassAllContext: true}, mqfmt.RCNotAuthorized},
		{"group authority applies to its members", "grpuser", "ORDERS.BO", mqwatch.OpenOptions{Browse: true}, 0},
		{"group authority stops at its profile", "grpuser", "ORDERS.BO", outOnly, mqfmt.RCNotAuthorized},
		{"mqm has all authority", "mqm", "ORDERS.IN", mqwatch.OpenOptions{Input: true, Output: true, SetAllContext: true}, 0},
		{"setall also needs setall on the queue manager", "bob", "ORDERS", mqwatch.OpenOptions{Output: true, SetAllContext: true}, mqfmt.RCNotAuthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := f.connect(tt.user)
			q, err := c.Open(f.ctx, mqwatch.ObjectDesc{Name: tt.obj}, tt.opts)
			if tt.rc != 0 {
				wantRC(t, err, tt.rc)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_ = q.Close(f.ctx)
		})
	}
	t.Run("a generic listing leaves out queues the user may not display", func(t *testing.T) {
		qs, err := f.connect("bob").Queues(f.ctx, "*")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, q := range qs {
			names = append(names, q.Name)
		}
		if len(names) != 1 || names[0] != "ORDERS.ARCHIVE.OLD" {
			t.Fatalf("bob sees %v, want only ORDERS.ARCHIVE.OLD (the other ORDERS queues have specific profiles without DSP)", names)
		}
	})
	t.Run("a specific name the user may not display fails 2035", func(t *testing.T) {
		_, err := f.connect("bob").QueueStatus(f.ctx, "ORDERS.BO")
		wantRC(t, err, mqfmt.RCNotAuthorized)
	})
	t.Run("inquiring the queue manager needs inq", func(t *testing.T) {
		_, err := f.connect("grpuser").QMgr(f.ctx)
		wantRC(t, err, mqfmt.RCNotAuthorized)
	})
	t.Run("the creator of a dynamic queue may use it", func(t *testing.T) {
		if _, err := f.qm.RunMQSC(stringsReader("SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET,PUT)")); err != nil {
			t.Fatal(err)
		}
		c := f.connect("bob")
		q := f.open(c, "SYSTEM.DEFAULT.MODEL.QUEUE", inOut)
		f.put(q, "mine", 0, false)
		if f.get(q, mqwatch.GetOptions{}) != "mine" {
			t.Fatal("no message")
		}
	})
}

package embedded_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// adminClient starts qm's command server and a PCF client connected as user.
func adminClient(t *testing.T, qm *embeddedtest.QM, user string) *pcf.Client {
	t.Helper()
	ctx := context.Background()
	srv, err := qm.StartCommandServer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Stop() })
	c := qm.Conn(mqwatch.ConnectOptions{User: user})
	pt, err := pcf.OpenPort(ctx, c, pcf.DefaultCommandQueue, pcf.DefaultReplyModel)
	if err != nil {
		t.Fatal(err)
	}
	return &pcf.Client{T: pt, Wait: 2 * time.Second}
}

// TestCommandServerEntityAuth: DISPLAY ENTAUTH answers from the authority
// records as the OAM adds them up: the most specific profile per entity,
// a principal's groups added, groupings (ALL) spelled out, and a principal
// in mqm holding everything; PING QMGR answers anyone who may put the
// command.
func TestCommandServerEntityAuth(t *testing.T) {
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", Groups: map[string][]string{"app1": {"apps"}, "boss": {"mqm"}}, MQSC: `DEFINE QLOCAL(APP.IN)
DEFINE QLOCAL(APP.IN.BOQ)
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app1') AUTHADD(CONNECT,DSP)
SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(PUT)
SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(GET,INQ)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(BROWSE)
SET AUTHREC PROFILE('APP.IN') OBJTYPE(QUEUE) PRINCIPAL('app1') AUTHADD(PUT)
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) GROUP('apps') AUTHADD(GET,DSP)
SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('peek') AUTHADD(CONNECT)
SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('peek') AUTHADD(PUT)
SET AUTHREC PROFILE('SYSTEM.DEFAULT.MODEL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('peek') AUTHADD(GET,INQ)
`})
	ctx := context.Background()
	cl := adminClient(t, qm, "app1")
	if err := cl.Ping(ctx); err != nil {
		t.Fatalf("ping: %v", err)
	}
	tests := []struct {
		req  pcf.EntityAuthRequest
		want []pcf.Auth
	}{
		// APP.IN: its own profile (put) beats APP.** for app1; the group's APP.** adds get and dsp.
		{pcf.EntityAuthRequest{Entity: "app1", Type: pcf.ObjQueue, Object: "APP.IN"}, []pcf.Auth{pcf.AuthDsp, pcf.AuthGet, pcf.AuthPut}},
		{pcf.EntityAuthRequest{Entity: "app1", Type: pcf.ObjQueue, Object: "APP.IN.BOQ"}, []pcf.Auth{pcf.AuthBrowse, pcf.AuthDsp, pcf.AuthGet}},
		{pcf.EntityAuthRequest{Entity: "apps", Group: true, Type: pcf.ObjQueue, Object: "APP.IN"}, []pcf.Auth{pcf.AuthDsp, pcf.AuthGet}},
		{pcf.EntityAuthRequest{Entity: "app1", Type: pcf.ObjQMgr}, []pcf.Auth{pcf.AuthConnect, pcf.AuthDsp}},
		{pcf.EntityAuthRequest{Entity: "nobody", Type: pcf.ObjQueue, Object: "APP.IN"}, nil},
	}
	for _, tt := range tests {
		got, err := cl.EntityAuth(ctx, tt.req)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%+v: %v %v, want %v", tt.req, got, err, tt.want)
		}
	}
	boss, err := cl.EntityAuth(ctx, pcf.EntityAuthRequest{Entity: "boss", Type: pcf.ObjQueue, Object: "APP.IN"})
	if err != nil || !slices.Contains(boss, pcf.AuthCrt) || !slices.Contains(boss, pcf.AuthSetAll) {
		t.Errorf("a member of mqm: %v %v", boss, err)
	}
	// Without dsp on the queue manager, DISPLAY ENTAUTH is refused; PING is not.
	peek := adminClient(t, qm, "peek")
	if err := peek.Ping(ctx); err != nil {
		t.Errorf("ping as peek: %v", err)
	}
	if _, err := peek.EntityAuth(ctx, pcf.EntityAuthRequest{Entity: "peek", Type: pcf.ObjQMgr}); mqwatch.ReasonOf(err) != mqfmt.RCNotAuthorized {
		t.Errorf("DISPLAY ENTAUTH without dsp: %v, want 2035", err)
	}
}

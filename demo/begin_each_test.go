package demo

import (
	"context"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func eachScenario(second string) *Scenario {
	return &Scenario{Name: "each", Seed: 1, QMgrs: []QMgrSpec{
		{Name: "QM1", Scripts: []Script{{Name: "qm1.mqsc", Text: "DEFINE QLOCAL(A)\n"}}},
		{Name: "QM2", Scripts: []Script{{Name: "qm2.mqsc", Text: second}}},
	}}
}

// TestBeginEachConnectsEachQMgrOnceDefined: the names are known at once,
// and a connection waits for its queue manager and then works on it.
func TestBeginEachConnectsEachQMgrOnceDefined(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := eachScenario("DEFINE QLOCAL(B)\n").BeginEach(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(st.Names(), ","); got != "QM1,QM2" {
		t.Fatalf("names %q", got)
	}
	for i, q := range []string{"A", "B"} {
		c, err := st.QMgr(i).Connect(ctx, mqwatch.ConnectOptions{ApplName: "each-test"})
		if err != nil {
			t.Fatalf("connect %s: %v", st.Names()[i], err)
		}
		if _, err := c.Open(ctx, mqwatch.ObjectDesc{Name: q}, mqwatch.OpenOptions{Browse: true}); err != nil {
			t.Fatalf("%s: open %s: %v", st.Names()[i], q, err)
		}
		c.Close()
	}
	<-st.Defined()
	if st.Err() != nil {
		t.Fatal(st.Err())
	}
	cancel()
	<-st.Run().Done()
}

// TestBeginEachSetupErrorReachesEveryConnect: a bad MQSC line in the
// second queue manager ends the run with the line's error, and connecting
// to that queue manager returns it; the first stays defined.
func TestBeginEachSetupErrorReachesEveryConnect(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := eachScenario("ALTER QLOCAL(MISSING) MAXDEPTH(5)\n").BeginEach(ctx)
	if err != nil {
		t.Fatal(err)
	}
	<-st.Defined()
	if st.Err() == nil || !strings.Contains(st.Err().Error(), "QM2") {
		t.Fatalf("setup error %v, want one naming QM2", st.Err())
	}
	if _, err := st.QMgr(1).Connect(ctx, mqwatch.ConnectOptions{}); err == nil || !strings.Contains(err.Error(), "qm2.mqsc") {
		t.Fatalf("connect QM2: %v, want the setup error", err)
	}
	if err := st.Run().Wait(); err == nil {
		t.Fatal("run ended without the setup error")
	}
}

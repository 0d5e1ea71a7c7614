package embedded

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestQueueStatusMonitoring(t *testing.T) {
	tests := []struct {
		name      string
		script    string
		monitored bool
	}{
		{"MONQ(QMGR) with the queue manager's default OFF", "DEFINE QLOCAL(Q)", false},
		{"MONQ(QMGR) follows ALTER QMGR MONQ(MEDIUM)", "DEFINE QLOCAL(Q)\nALTER QMGR MONQ(MEDIUM)", true},
		{"MONQ(LOW) on the queue", "DEFINE QLOCAL(Q) MONQ(LOW)", true},
		{"MONQ(OFF) on the queue wins over the queue manager", "DEFINE QLOCAL(Q) MONQ(OFF)\nALTER QMGR MONQ(HIGH)", false},
		{"queue manager MONQ(NONE) wins over the queue", "DEFINE QLOCAL(Q) MONQ(HIGH)\nALTER QMGR MONQ(NONE)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.script)
			q := f.open(f.connect(""), "Q", inOut)
			putAt := f.clk.Now()
			f.put(q, "old", 0, false)
			f.clk.Advance(30 * time.Second)
			f.put(q, "new", 0, false)
			f.clk.Advance(15 * time.Second)
			getAt := f.clk.Now()
			f.get(q, mqwatch.GetOptions{})
			f.clk.Advance(5 * time.Second)
			st := f.status("Q")
			if st.Monitored != tt.monitored || st.Depth != 1 {
				t.Fatalf("status %+v", st)
			}
			if !tt.monitored {
				if !st.LastPut.IsZero() || st.OldestAge != 0 {
					t.Fatalf("unmonitored queue reports figures: %+v", st)
				}
				return
			}
			if st.OldestAge != 20*time.Second || !st.LastPut.Equal(putAt.Add(30*time.Second)) || !st.LastGet.Equal(getAt) {
				t.Fatalf("age %v last put %v last get %v", st.OldestAge, st.LastPut, st.LastGet)
			}
		})
	}
}

func TestHandleStatus(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)\nDEFINE QALIAS(A) TARGET(Q)\nSET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CONNECT)\n"+
		"SET AUTHREC PROFILE(A) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(GET,BROWSE)")
	consumer := f.connect("app")
	in := f.open(consumer, "A", browseIn)
	producer := f.connect("")
	out := f.open(producer, "Q", outOnly)
	f.put(out, "x", 0, true)
	admin := f.connect("")
	hs, err := admin.Handles(f.ctx, "Q")
	if err != nil || len(hs) != 2 {
		t.Fatalf("handles %+v %v", hs, err)
	}
	c, p := hs[0], hs[1]
	if c.ApplTag != "app-app" || c.User != "app" || !c.Input || !c.Browse || c.Output || c.UOW || c.Channel != "" {
		t.Errorf("consumer handle %+v", c)
	}
	if p.ApplTag != "app-" || p.User != "mqm" || !p.Output || p.Input || !p.UOW {
		t.Errorf("producer handle %+v", p)
	}
	if c.PID == p.PID || c.ConnID == p.ConnID || len(c.ConnID) != 48 {
		t.Errorf("PIDs %d %d ConnIDs %q %q", c.PID, p.PID, c.ConnID, p.ConnID)
	}
	st := f.status("Q")
	if st.OpenInput != 1 || st.OpenOutput != 1 {
		t.Errorf("IPPROCS %d OPPROCS %d", st.OpenInput, st.OpenOutput)
	}
	_ = in.Close(f.ctx)
	if st := f.status("Q"); st.OpenInput != 0 {
		t.Errorf("IPPROCS after close %d", st.OpenInput)
	}
}

func TestQueueListing(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(ORDERS.IN)\nDEFINE QLOCAL(ORDERS.BO)\nDEFINE QALIAS(ORDERS) TARGET(ORDERS.IN)")
	c := f.connect("")
	qs, err := c.Queues(f.ctx, "ORDERS*")
	if err != nil || len(qs) != 3 || qs[0].Name != "ORDERS" || qs[1].Name != "ORDERS.BO" {
		t.Fatalf("Queues = %+v %v", qs, err)
	}
	st, err := c.QueueStatus(f.ctx, "ORDERS*")
	if err != nil || len(st) != 2 {
		t.Fatalf("QueueStatus lists only local queues: %+v %v", st, err)
	}
	_, err = c.Queues(f.ctx, "NOPE")
	wantRC(t, err, 2085)
	if qs, err := c.Queues(f.ctx, "NOPE*"); err != nil || len(qs) != 0 {
		t.Fatalf("generic name without matches: %v %v", qs, err)
	}
	info, err := c.QMgr(f.ctx)
	if err != nil || info.Name != "QM1" || info.MaxMsgLen != 4194304 || info.Platform != "UNIX" || info.DeadQ != "" {
		t.Fatalf("QMgr = %+v %v", info, err)
	}
}

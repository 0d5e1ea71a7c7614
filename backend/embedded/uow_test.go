package embedded

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

type uowStep func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue)

type uowCase struct {
	name                     string
	run                      uowStep
	depth, uncom             int32
	bReads                   []string // what connection b then gets, in order
	backoutCountOfFirstBRead int32
}

// uowCases run on two connections to one queue; b reads what is left.
var uowCases = []uowCase{
	{"a get under syncpoint hides the message from others until commit",
		func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue) {
			f.put(qa, "m1", 0, false)
			f.put(qa, "m2", 0, false)
			f.get(qa, mqwatch.GetOptions{Syncpoint: true})
		}, 1, 1, []string{"m2"}, 0},
	{"backout returns the message to its place with BackoutCount incremented",
		func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue) {
			f.put(qa, "m1", 0, false)
			f.put(qa, "m2", 0, false)
			f.get(qa, mqwatch.GetOptions{Syncpoint: true})
			if err := a.Backout(f.ctx); err != nil {
				f.t.Fatal(err)
			}
		}, 2, 0, []string{"m1", "m2"}, 1},
	{"commit makes a get final",
		func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue) {
			f.put(qa, "m1", 0, false)
			f.put(qa, "m2", 0, false)
			f.get(qa, mqwatch.GetOptions{Syncpoint: true})
			if err := a.Commit(f.ctx); err != nil {
				f.t.Fatal(err)
			}
		}, 1, 0, []string{"m2"}, 0},
	{"a put under syncpoint counts in CURDEPTH but is invisible until commit",
		func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue) {
			f.put(qa, "m1", 0, true)
			if _, err := qb.Get(f.ctx, mqwatch.GetOptions{}); !mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
				f.t.Fatalf("uncommitted put visible: %v", err)
			}
			if _, err := qa.Get(f.ctx, mqwatch.GetOptions{}); !mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
				f.t.Fatalf("uncommitted put visible to its own connection: %v", err)
			}
		}, 1, 1, nil, 0},
	{"a committed put becomes visible",
		func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue) {
			f.put(qa, "m1", 0, true)
			if err := a.Commit(f.ctx); err != nil {
				f.t.Fatal(err)
			}
		}, 1, 0, []string{"m1"}, 0},
	{"a backed-out put vanishes",
		func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue) {
			f.put(qa, "m1", 0, true)
			if err := a.Backout(f.ctx); err != nil {
				f.t.Fatal(err)
			}
		}, 0, 0, nil, 0},
	{"closing a connection backs its unit of work out",
		func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue) {
			f.put(qa, "m1", 0, false)
			f.put(qa, "m2", 0, true)
			f.get(qa, mqwatch.GetOptions{Syncpoint: true})
			if err := a.Close(); err != nil {
				f.t.Fatal(err)
			}
		}, 1, 0, []string{"m1"}, 1},
	{"UNCOM counts uncommitted puts and gets together",
		func(f *fixture, a, b mqwatch.Conn, qa, qb mqwatch.Queue) {
			f.put(qa, "m1", 0, false)
			f.put(qa, "m2", 0, false)
			f.get(qa, mqwatch.GetOptions{Syncpoint: true})
			f.put(qa, "m3", 0, true)
		}, 2, 2, []string{"m2"}, 0},
}

func TestUnitsOfWork(t *testing.T) {
	tests := uowCases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "DEFINE QLOCAL(Q)")
			a, b := f.connect(""), f.connect("")
			qa, qb := f.open(a, "Q", inOut), f.open(b, "Q", inOut)
			tt.run(f, a, b, qa, qb)
			st := f.status("Q")
			if st.Depth != tt.depth || st.Uncommitted != tt.uncom {
				t.Fatalf("CURDEPTH %d UNCOM %d, want %d %d", st.Depth, st.Uncommitted, tt.depth, tt.uncom)
			}
			for i, want := range tt.bReads {
				m, err := qb.Get(f.ctx, mqwatch.GetOptions{})
				if err != nil || string(m.Data) != want {
					t.Fatalf("read %d: %q, %v; want %q", i, m.Data, err, want)
				}
				if i == 0 && m.MD.BackoutCount != tt.backoutCountOfFirstBRead {
					t.Fatalf("BackoutCount %d, want %d", m.MD.BackoutCount, tt.backoutCountOfFirstBRead)
				}
			}
		})
	}
}

func TestBackoutCountGrowsWithEachRollback(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q) BOTHRESH(3)")
	c := f.connect("")
	q := f.open(c, "Q", inOut)
	f.put(q, "poison", 0, false)
	for i := int32(0); i < 5; i++ {
		m, err := q.Get(f.ctx, mqwatch.GetOptions{Syncpoint: true})
		if err != nil || m.MD.BackoutCount != i {
			t.Fatalf("round %d: BackoutCount %d, %v", i, m.MD.BackoutCount, err)
		}
		if err := c.Backout(f.ctx); err != nil {
			t.Fatal(err)
		}
	}
	// R1f: the queue manager itself never moves the message, whatever BOTHRESH says.
	if st := f.status("Q"); st.Depth != 1 {
		t.Fatalf("depth %d, want the poison message still there", st.Depth)
	}
}

func TestMaxUncommittedMessages(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)\nALTER QMGR MAXUMSGS(2)")
	c := f.connect("")
	q := f.open(c, "Q", inOut)
	f.put(q, "1", 0, true)
	f.put(q, "2", 0, true)
	md := mqfmt.NewMQMD()
	wantRC(t, q.Put(f.ctx, &md, nil, mqwatch.PutOptions{Syncpoint: true}), rcSyncpointLimitReached)
	if err := c.Commit(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.put(q, "3", 0, true)
}

package embedded

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

type reasonCase struct {
	name string
	run  func(f *fixture) error
	rc   mqfmt.Reason
}

const reasonScript = `DEFINE QLOCAL(Q) MAXDEPTH(2) MAXMSGL(10)
DEFINE QLOCAL(PUTOFF) PUT(DISABLED)
DEFINE QLOCAL(GETOFF) GET(DISABLED)
DEFINE QALIAS(A.OFF) TARGET(Q) PUT(DISABLED)
DEFINE QALIAS(A.BROKEN) TARGET(NOWHERE)
DEFINE QALIAS(A.ALIAS) TARGET(A.OFF)
DEFINE QLOCAL(EXCL) NOSHARE
DEFINE QLOCAL(BIG) MAXMSGL(104857600)
ALTER QMGR MAXMSGL(32768)`

// putN opens name for output as the administrator and puts n bytes.
func putN(f *fixture, name string, n int) error {
	q, err := f.connect("").Open(f.ctx, mqwatch.ObjectDesc{Name: name}, outOnly)
	if err != nil {
		return err
	}
	md := mqfmt.NewMQMD()
	return q.Put(f.ctx, &md, make([]byte, n), mqwatch.PutOptions{})
}

// reasonCases are the calls that must fail with IBM's reason codes.
var reasonCases = []reasonCase{
	{"2085 unknown queue", func(f *fixture) error { return putN(f, "NOPE", 1) }, mqfmt.RCUnknownObjectName},
	{"2082 alias base queue missing", func(f *fixture) error { return putN(f, "A.BROKEN", 1) }, mqfmt.RCUnknownAliasBaseQ},
	{"2001 alias resolving to an alias", func(f *fixture) error { return putN(f, "A.ALIAS", 1) }, mqfmt.RCAliasBaseQTypeError},
	{"2051 put inhibited queue", func(f *fixture) error { return putN(f, "PUTOFF", 1) }, mqfmt.RCPutInhibited},
	{"2051 put inhibited alias over an enabled queue", func(f *fixture) error { return putN(f, "A.OFF", 1) }, mqfmt.RCPutInhibited},
	{"2030 longer than the queue's MAXMSGL", func(f *fixture) error { return putN(f, "Q", 11) }, mqfmt.RCMsgTooBigForQ},
	{"2031 longer than the queue manager's MAXMSGL", func(f *fixture) error { return putN(f, "BIG", 40000) }, mqfmt.RCMsgTooBigForQMgr},
	{"2053 queue at MAXDEPTH", func(f *fixture) error {
		for i := 0; i < 2; i++ {
			if err := putN(f, "Q", 1); err != nil {
				return err
			}
		}
		return putN(f, "Q", 1)
	}, mqfmt.RCQFull},
	{"2016 get inhibited", func(f *fixture) error {
		_, err := f.open(f.connect(""), "GETOFF", browseIn).Get(f.ctx, mqwatch.GetOptions{})
		return err
	}, mqfmt.RCGetInhibited},
	{"2016 browse of a get-inhibited queue", func(f *fixture) error {
		_, err := f.open(f.connect(""), "GETOFF", browseIn).Browse(f.ctx, mqwatch.BrowseOptions{})
		return err
	}, mqfmt.RCGetInhibited},
	{"2033 empty queue", func(f *fixture) error {
		_, err := f.open(f.connect(""), "Q", browseIn).Get(f.ctx, mqwatch.GetOptions{})
		return err
	}, mqfmt.RCNoMsgAvailable},
	{"2034 get under a cursor that was never set", func(f *fixture) error {
		_, err := f.open(f.connect(""), "Q", browseIn).Get(f.ctx, mqwatch.GetOptions{UnderCursor: true})
		return err
	}, mqfmt.RCNoMsgUnderCursor},
	{"2036 browse on a handle not opened to browse", func(f *fixture) error {
		_, err := f.open(f.connect(""), "Q", inOut).Browse(f.ctx, mqwatch.BrowseOptions{})
		return err
	}, mqfmt.RCNotOpenForBrowse},
	{"2037 get on a handle not opened for input", func(f *fixture) error {
		_, err := f.open(f.connect(""), "Q", outOnly).Get(f.ctx, mqwatch.GetOptions{})
		return err
	}, mqfmt.RCNotOpenForInput},
	{"2039 put on a handle not opened for output", func(f *fixture) error {
		md := mqfmt.NewMQMD()
		return f.open(f.connect(""), "Q", browseIn).Put(f.ctx, &md, nil, mqwatch.PutOptions{})
	}, mqfmt.RCNotOpenForOutput},
	{"2038 inquire on a handle not opened to inquire", func(f *fixture) error {
		_, err := f.open(f.connect(""), "Q", outOnly).Inquire(f.ctx)
		return err
	}, mqfmt.RCNotOpenForInquire},
	{"2042 second input handle on a NOSHARE queue", func(f *fixture) error {
		f.open(f.connect(""), "EXCL", browseIn)
		_, err := f.connect("").Open(f.ctx, mqwatch.ObjectDesc{Name: "EXCL"}, browseIn)
		return err
	}, mqfmt.RCObjectInUse},
	{"2046 open without any access", func(f *fixture) error {
		_, err := f.connect("").Open(f.ctx, mqwatch.ObjectDesc{Name: "Q"}, mqwatch.OpenOptions{SaveAllContext: true})
		return err
	}, mqfmt.RCOptionsError},
	{"2018 call on a closed connection", func(f *fixture) error {
		c := f.connect("")
		q := f.open(c, "Q", inOut)
		_ = c.Close()
		_, err := q.Get(f.ctx, mqwatch.GetOptions{})
		return err
	}, mqfmt.RCHconnError},
	{"2019 call on a closed handle", func(f *fixture) error {
		q := f.open(f.connect(""), "Q", inOut)
		_ = q.Close(f.ctx)
		_, err := q.Get(f.ctx, mqwatch.GetOptions{})
		return err
	}, mqfmt.RCHobjError},
}

func TestReasonCodes(t *testing.T) {
	tests := reasonCases
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, reasonScript)
			wantRC(t, tt.run(f), tt.rc)
		})
	}
}

func TestTruncation(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	q := f.open(f.connect(""), "Q", browseIn)
	w := f.open(f.connect(""), "Q", outOnly)
	f.put(w, "0123456789", 0, false)
	t.Run("2080 leaves the message and reports its length", func(t *testing.T) {
		m, err := q.Get(f.ctx, mqwatch.GetOptions{MaxBytes: 4})
		wantRC(t, err, mqfmt.RCTruncatedMsgFailed)
		if m.Length != 10 || string(m.Data) != "0123" {
			t.Fatalf("message %q length %d", m.Data, m.Length)
		}
		if f.status("Q").Depth != 1 {
			t.Fatal("message removed on 2080")
		}
	})
	t.Run("a bounded browse returns a prefix without error", func(t *testing.T) {
		m, err := q.Browse(f.ctx, mqwatch.BrowseOptions{First: true, MaxBytes: 3})
		if err != nil || string(m.Data) != "012" || !m.Truncated() {
			t.Fatalf("browse %q %v", m.Data, err)
		}
	})
	t.Run("accepting truncation removes the message", func(t *testing.T) {
		m, err := q.Get(f.ctx, mqwatch.GetOptions{MaxBytes: 4, AcceptTruncated: true})
		if err != nil || string(m.Data) != "0123" || m.Length != 10 {
			t.Fatalf("get %q %d %v", m.Data, m.Length, err)
		}
		if f.status("Q").Depth != 0 {
			t.Fatal("message not removed")
		}
	})
}

func TestOneCallAtATimePerConnection(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	q := f.open(c, "Q", browseIn)
	started := make(chan struct{})
	done := make(chan error)
	go func() {
		close(started)
		_, err := q.Get(f.ctx, mqwatch.GetOptions{Wait: 5 * time.Second})
		done <- err
	}()
	<-started
	deadline := time.Now().Add(2 * time.Second)
	var err error
	for time.Now().Before(deadline) {
		_, err = c.QMgr(f.ctx)
		if mqwatch.IsReason(err, mqfmt.RCCallInProgress) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	wantRC(t, err, mqfmt.RCCallInProgress)
	other := f.open(f.connect(""), "Q", outOnly)
	f.put(other, "wake", 0, false)
	if err := <-done; err != nil {
		t.Fatalf("waiting get: %v", err)
	}
}

func TestGetWait(t *testing.T) {
	t.Run("returns when a message arrives", func(t *testing.T) {
		f := newFixture(t, "DEFINE QLOCAL(Q)")
		q := f.open(f.connect(""), "Q", browseIn)
		w := f.open(f.connect(""), "Q", outOnly)
		go func() {
			waitForWaiter(t, f.qm, "Q")
			f.put(w, "late", 0, false)
		}()
		m, err := q.Get(f.ctx, mqwatch.GetOptions{Wait: 5 * time.Second})
		if err != nil || string(m.Data) != "late" {
			t.Fatalf("%q %v", m.Data, err)
		}
	})
	t.Run("ends with 2033 after the wait interval", func(t *testing.T) {
		f := newFixture(t, "DEFINE QLOCAL(Q)")
		q := f.open(f.connect(""), "Q", browseIn)
		_, err := q.Get(f.ctx, mqwatch.GetOptions{Wait: 10 * time.Millisecond})
		wantRC(t, err, mqfmt.RCNoMsgAvailable)
	})
	t.Run("ends when the context is cancelled", func(t *testing.T) {
		f := newFixture(t, "DEFINE QLOCAL(Q)")
		q := f.open(f.connect(""), "Q", browseIn)
		ctx, cancel := context.WithTimeout(f.ctx, 10*time.Millisecond)
		defer cancel()
		_, err := q.Browse(ctx, mqwatch.BrowseOptions{Wait: time.Minute})
		if err == nil || !strings.Contains(err.Error(), "deadline") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("ends with 2009 when the connection breaks", func(t *testing.T) {
		f := newFixture(t, "DEFINE QLOCAL(Q)")
		c := f.connect("")
		q := f.open(c, "Q", browseIn)
		go func() {
			waitForWaiter(t, f.qm, "Q")
			_ = f.qm.Break(c)
		}()
		_, err := q.Get(f.ctx, mqwatch.GetOptions{Wait: time.Minute})
		wantRC(t, err, mqfmt.RCConnectionBroken)
	})
	t.Run("ends with 2016 when gets are inhibited meanwhile", func(t *testing.T) {
		f := newFixture(t, "DEFINE QLOCAL(Q)")
		q := f.open(f.connect(""), "Q", browseIn)
		go func() {
			waitForWaiter(t, f.qm, "Q")
			_, _ = f.qm.RunMQSC(strings.NewReader("ALTER QLOCAL(Q) GET(DISABLED)"))
		}()
		_, err := q.Get(f.ctx, mqwatch.GetOptions{Wait: time.Minute})
		wantRC(t, err, mqfmt.RCGetInhibited)
	})
}

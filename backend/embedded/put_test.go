package embedded

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestDeliveryOrder(t *testing.T) {
	tests := []struct {
		name   string
		script string
		puts   []int32
		want   []string
	}{
		{"higher priority first, then first in first out", "DEFINE QLOCAL(Q)",
			[]int32{0, 5, 0, 9, 5}, []string{"3", "1", "4", "0", "2"}},
		{"MSGDLVSQ(FIFO) ignores priority", "DEFINE QLOCAL(Q) MSGDLVSQ(FIFO)",
			[]int32{0, 5, 0, 9}, []string{"0", "1", "2", "3"}},
		{"priority -1 takes DEFPRTY", "DEFINE QLOCAL(Q) DEFPRTY(4)",
			[]int32{3, -1, 5}, []string{"2", "1", "0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.script)
			q := f.open(f.connect(""), "Q", inOut)
			for i, p := range tt.puts {
				f.put(q, string(rune('0'+i)), p, false)
			}
			var got []string
			for range tt.want {
				got = append(got, f.get(q, mqwatch.GetOptions{}))
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Fatalf("order %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPutGeneratesIBMStyleMsgIds(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	q := f.open(f.connect(""), "Q", inOut)
	a, b := f.put(q, "a", 0, false), f.put(q, "b", 0, false)
	if got := string(a.MsgId[:16]); got != "AMQ QM1         " {
		t.Fatalf("MsgId prefix %q, want \"AMQ \" + the queue manager name padded to 12", got)
	}
	if a.MsgId == b.MsgId {
		t.Fatal("two puts got the same MsgId")
	}
	if binary.LittleEndian.Uint32(a.MsgId[16:]) != uint32(f.clk.Now().Unix()) {
		t.Fatal("MsgId bytes 16..19 are not the queue manager start time")
	}
	md := mqfmt.NewMQMD()
	md.MsgId = [24]byte{1, 2, 3}
	if err := q.Put(f.ctx, &md, nil, mqwatch.PutOptions{}); err != nil || md.MsgId != [24]byte{1, 2, 3} {
		t.Fatalf("a given MsgId was not kept: %x, %v", md.MsgId, err)
	}
	if err := q.Put(f.ctx, &md, nil, mqwatch.PutOptions{NewMsgId: true}); err != nil || md.MsgId == [24]byte{1, 2, 3} {
		t.Fatalf("NewMsgId did not replace the MsgId: %v", err)
	}
}

func TestPutFillsDefaultContext(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q) DEFPSIST(YES)")
	c, err := f.qm.Connect(f.ctx, mqwatch.ConnectOptions{ApplName: "/opt/apps/bin/order-service-consumer-v2"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	q := f.open(c, "Q", inOut)
	md := mqfmt.NewMQMD()
	md.BackoutCount = 7
	md.UserIdentifier = "forged"
	if err := q.Put(f.ctx, &md, []byte("x"), mqwatch.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	m, err := q.Get(f.ctx, mqwatch.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := m.MD
	checks := []struct{ field, got, want string }{
		{"UserIdentifier", got.UserIdentifier, "mqm         "},
		{"PutApplName (last 28 characters)", got.PutApplName, "in/order-service-consumer-v2"},
		{"PutDate (GMT)", got.PutDate, "20260309"},
		{"PutTime (GMT, hundredths)", got.PutTime, "14301525"},
		{"ReplyToQMgr (blank becomes the queue manager)", mqfmt.Trim(got.ReplyToQMgr), "QM1"},
		{"Format padded", got.Format, "        "},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %q, want %q", ch.field, ch.got, ch.want)
		}
	}
	if got.PutApplType != mqfmt.ATUnix || got.BackoutCount != 0 || got.Persistence != mqfmt.PerPersistent ||
		got.CodedCharSetId != 1208 {
		t.Errorf("PutApplType %d BackoutCount %d Persistence %d CCSID %d", got.PutApplType, got.BackoutCount,
			got.Persistence, got.CodedCharSetId)
	}
	if md.MsgId != got.MsgId || md.PutDate != "20260309" {
		t.Error("MQPUT did not write the MsgId and context back into the caller's MQMD")
	}
	if got.AccountingToken[0] != 3 || string(got.AccountingToken[1:4]) != "mqm" || got.AccountingToken[31] != 6 {
		t.Errorf("AccountingToken % x", got.AccountingToken)
	}
}

func TestPutContextOptions(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(SRC)\nDEFINE QLOCAL(DST)")
	c := f.connect("")
	src := f.open(c, "SRC", mqwatch.OpenOptions{Input: true, Output: true, SaveAllContext: true})
	orig := mqfmt.NewMQMD()
	if err := src.Put(f.ctx, &orig, []byte("x"), mqwatch.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(90 * 60e9) // later, so a default context would differ
	if _, err := src.Get(f.ctx, mqwatch.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		open mqwatch.OpenOptions
		opts mqwatch.PutOptions
		rc   mqfmt.Reason
	}{
		{"pass all context copies the got message's context", mqwatch.OpenOptions{Output: true, PassAllContext: true},
			mqwatch.PutOptions{Context: mqwatch.ContextPassAll, ContextFrom: src}, 0},
		{"pass all needs the handle opened to pass all", outOnly,
			mqwatch.PutOptions{Context: mqwatch.ContextPassAll, ContextFrom: src}, rcNotOpenForPassAll},
		{"pass all needs a handle that saves context", mqwatch.OpenOptions{Output: true, PassAllContext: true},
			mqwatch.PutOptions{Context: mqwatch.ContextPassAll, ContextFrom: nil}, mqfmt.RCContextHandleError},
		{"set all needs the handle opened to set all", outOnly,
			mqwatch.PutOptions{Context: mqwatch.ContextSetAll}, rcNotOpenForSetAll},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := f.open(c, "DST", tt.open)
			defer dst.Close(f.ctx)
			md := mqfmt.NewMQMD()
			err := dst.Put(f.ctx, &md, []byte("y"), tt.opts)
			if tt.rc != 0 {
				wantRC(t, err, tt.rc)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if md.PutDate != orig.PutDate || md.PutTime != orig.PutTime || md.PutApplName != orig.PutApplName {
				t.Fatalf("passed context %q %q %q, want %q %q %q", md.PutDate, md.PutTime, md.PutApplName,
					orig.PutDate, orig.PutTime, orig.PutApplName)
			}
		})
	}
	t.Run("pass all fails 2098 without a got message or after a browse", func(t *testing.T) {
		saver := f.open(c, "SRC", mqwatch.OpenOptions{Input: true, Browse: true, Output: true, SaveAllContext: true})
		dst := f.open(c, "DST", mqwatch.OpenOptions{Output: true, PassAllContext: true})
		pass := func() error {
			md := mqfmt.NewMQMD()
			return dst.Put(f.ctx, &md, nil, mqwatch.PutOptions{Context: mqwatch.ContextPassAll, ContextFrom: saver})
		}
		wantRC(t, pass(), mqfmt.RCNoContextAvailable)
		f.put(saver, "one", 0, false)
		f.put(saver, "two", 0, false)
		f.get(saver, mqwatch.GetOptions{})
		if err := pass(); err != nil {
			t.Fatalf("pass all after a get: %v", err)
		}
		if _, err := saver.Browse(f.ctx, mqwatch.BrowseOptions{First: true}); err != nil {
			t.Fatal(err)
		}
		wantRC(t, pass(), mqfmt.RCNoContextAvailable)
	})
	t.Run("set all context keeps the caller's context", func(t *testing.T) {
		dst := f.open(c, "DST", mqwatch.OpenOptions{Output: true, SetAllContext: true})
		md := mqfmt.NewMQMD()
		md.PutApplName, md.PutDate, md.PutTime, md.UserIdentifier = "replayer", "20240101", "00000000", "alice"
		if err := dst.Put(f.ctx, &md, nil, mqwatch.PutOptions{Context: mqwatch.ContextSetAll}); err != nil {
			t.Fatal(err)
		}
		if mqfmt.Trim(md.UserIdentifier) != "alice" || md.PutDate != "20240101" {
			t.Fatalf("set context not kept: %q %q", md.UserIdentifier, md.PutDate)
		}
	})
}

func TestPutRejectsBadDescriptors(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	q := f.open(f.connect(""), "Q", inOut)
	tests := []struct {
		name string
		set  func(*mqfmt.MQMD)
		rc   mqfmt.Reason
	}{
		{"priority below -1", func(md *mqfmt.MQMD) { md.Priority = -2 }, rcPriorityError},
		{"expiry of zero", func(md *mqfmt.MQMD) { md.Expiry = 0 }, mqfmt.RCExpiryError},
		{"unknown persistence", func(md *mqfmt.MQMD) { md.Persistence = 7 }, rcPersistenceError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := mqfmt.NewMQMD()
			tt.set(&md)
			wantRC(t, q.Put(f.ctx, &md, nil, mqwatch.PutOptions{}), tt.rc)
		})
	}
	t.Run("priority above MAXPRTY is queued at 9 with warning 2049, the MQMD keeps 12", func(t *testing.T) {
		first := mqfmt.NewMQMD()
		first.Priority = 9
		if err := q.Put(f.ctx, &first, []byte("nine"), mqwatch.PutOptions{}); err != nil {
			t.Fatal(err)
		}
		md := mqfmt.NewMQMD()
		md.Priority = 12
		err := q.Put(f.ctx, &md, []byte("twelve"), mqwatch.PutOptions{})
		if !mqwatch.IsWarning(err) || !mqwatch.IsReason(err, 2049) || md.Priority != 12 || md.MsgId == ([24]byte{}) {
			t.Fatalf("Put: priority %d, MsgId %x, %v; want MQCC_WARNING 2049, the caller's 12 kept and the MsgId set", md.Priority, md.MsgId, err)
		}
		// Queued at MAXPRTY: after the message already there at 9, not
		// in front of it; delivered with the priority the application gave.
		m, err := q.Get(f.ctx, mqwatch.GetOptions{})
		if err != nil || string(m.Data) != "nine" {
			t.Fatalf("first get %q, %v; want the priority-9 message put first", m.Data, err)
		}
		m, err = q.Get(f.ctx, mqwatch.GetOptions{})
		if err != nil || m.MD.Priority != 12 || m.MD.MsgId != md.MsgId {
			t.Fatalf("queued message's MQMD priority %d, %v; want 12 as put", m.MD.Priority, err)
		}
	})
}

func TestPutCopiesTheCallersBuffer(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	q := f.open(f.connect(""), "Q", inOut)
	buf := []byte("original")
	md := mqfmt.NewMQMD()
	if err := q.Put(f.ctx, &md, buf, mqwatch.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	copy(buf, "CHANGED!")
	m, _ := q.Get(f.ctx, mqwatch.GetOptions{})
	if !bytes.Equal(m.Data, []byte("original")) {
		t.Fatalf("got %q", m.Data)
	}
}

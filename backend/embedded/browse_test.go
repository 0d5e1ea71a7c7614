package embedded

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// browseAll browses with opts until 2033 and returns the bodies.
func browseAll(f *fixture, q mqwatch.Queue, opts mqwatch.BrowseOptions) []string {
	f.t.Helper()
	var out []string
	for i := 0; i < 100; i++ {
		m, err := q.Browse(f.ctx, opts)
		if mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable) {
			return out
		}
		if err != nil {
			f.t.Fatalf("browse: %v", err)
		}
		out = append(out, string(m.Data))
		opts.First = false
	}
	f.t.Fatal("browse did not end")
	return nil
}

func TestBrowseCursor(t *testing.T) {
	tests := []struct {
		name string
		run  func(f *fixture, b, w mqwatch.Queue) []string
		want string
	}{
		{"browse first then next walks delivery order", func(f *fixture, b, w mqwatch.Queue) []string {
			f.put(w, "a", 0, false)
			f.put(w, "b", 3, false)
			f.put(w, "c", 0, false)
			return browseAll(f, b, mqwatch.BrowseOptions{First: true})
		}, "b,a,c"},
		{"browse next continues after a message removed under the cursor", func(f *fixture, b, w mqwatch.Queue) []string {
			for _, s := range []string{"a", "b", "c"} {
				f.put(w, s, 0, false)
			}
			m, _ := b.Browse(f.ctx, mqwatch.BrowseOptions{})
			got := []string{string(m.Data)}
			g := f.open(f.connect(""), "Q", browseIn)
			f.get(g, mqwatch.GetOptions{}) // takes "a", the message under b's cursor
			f.get(g, mqwatch.GetOptions{}) // and "b"
			return append(got, browseAll(f, b, mqwatch.BrowseOptions{})...)
		}, "a,c"},
		{"a message of higher priority arriving behind the cursor waits for browse first", func(f *fixture, b, w mqwatch.Queue) []string {
			f.put(w, "a", 0, false)
			f.put(w, "b", 0, false)
			m, _ := b.Browse(f.ctx, mqwatch.BrowseOptions{})
			got := []string{string(m.Data)}
			f.put(w, "urgent", 9, false)
			got = append(got, browseAll(f, b, mqwatch.BrowseOptions{})...)
			return append(got, browseAll(f, b, mqwatch.BrowseOptions{First: true})...)
		}, "a,b,urgent,a,b"},
		{"locked and uncommitted messages are skipped", func(f *fixture, b, w mqwatch.Queue) []string {
			f.put(w, "a", 0, false)
			f.put(w, "b", 0, false)
			f.put(w, "c", 0, true)
			g := f.open(f.connect(""), "Q", browseIn)
			f.get(g, mqwatch.GetOptions{Syncpoint: true})
			return browseAll(f, b, mqwatch.BrowseOptions{First: true})
		}, "b"},
		{"get under cursor takes the browsed message", func(f *fixture, b, w mqwatch.Queue) []string {
			for _, s := range []string{"a", "b", "c"} {
				f.put(w, s, 0, false)
			}
			_, _ = b.Browse(f.ctx, mqwatch.BrowseOptions{})
			_, _ = b.Browse(f.ctx, mqwatch.BrowseOptions{})
			got := []string{f.get(b, mqwatch.GetOptions{UnderCursor: true})}
			return append(got, browseAll(f, b, mqwatch.BrowseOptions{First: true})...)
		}, "b,a,c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "DEFINE QLOCAL(Q)")
			b := f.open(f.connect(""), "Q", browseIn)
			w := f.open(f.connect(""), "Q", outOnly)
			if got := strings.Join(tt.run(f, b, w), ","); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestGetUnderCursorOfAGoneMessageFails2034(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	b := f.open(f.connect(""), "Q", browseIn)
	w := f.open(f.connect(""), "Q", outOnly)
	f.put(w, "a", 0, false)
	_, _ = b.Browse(f.ctx, mqwatch.BrowseOptions{})
	f.get(f.open(f.connect(""), "Q", browseIn), mqwatch.GetOptions{})
	_, err := b.Get(f.ctx, mqwatch.GetOptions{UnderCursor: true})
	wantRC(t, err, mqfmt.RCNoMsgUnderCursor)
}

func TestBrowseUnmarked(t *testing.T) {
	unmarked := mqwatch.BrowseOptions{First: true, Unmarked: true}
	tests := []struct {
		name string
		run  func(f *fixture, b, w mqwatch.Queue, wc mqwatch.Conn) []string
		want string
	}{
		{"each message is returned once, in delivery order", func(f *fixture, b, w mqwatch.Queue, _ mqwatch.Conn) []string {
			f.put(w, "a", 0, false)
			f.put(w, "b", 5, false)
			got := browseAll(f, b, unmarked)
			return append(got, browseAll(f, b, unmarked)...)
		}, "b,a"},
		{"new messages are returned on the next pass", func(f *fixture, b, w mqwatch.Queue, _ mqwatch.Conn) []string {
			f.put(w, "a", 0, false)
			got := browseAll(f, b, unmarked)
			f.put(w, "b", 0, false)
			f.put(w, "c", 9, false)
			return append(got, browseAll(f, b, unmarked)...)
		}, "a,c,b"},
		{"a backed-out message comes back unmarked with its new BackoutCount", func(f *fixture, b, w mqwatch.Queue, _ mqwatch.Conn) []string {
			f.put(w, "a", 0, false)
			f.put(w, "b", 0, false)
			got := browseAll(f, b, unmarked)
			gc := f.connect("")
			g := f.open(gc, "Q", browseIn)
			f.get(g, mqwatch.GetOptions{Syncpoint: true})
			if err := gc.Backout(f.ctx); err != nil {
				f.t.Fatal(err)
			}
			m, err := b.Browse(f.ctx, unmarked)
			if err != nil || m.MD.BackoutCount != 1 {
				f.t.Fatalf("rebrowse: %q BackoutCount %d %v", m.Data, m.MD.BackoutCount, err)
			}
			got = append(got, string(m.Data))
			return append(got, browseAll(f, b, unmarked)...)
		}, "a,b,a"},
		{"a message backed out at the handle's scan position comes back unmarked", backedOutAtScanPosition, "a,a,b"},
		{"a put committed after the scan passed it is returned", func(f *fixture, b, w mqwatch.Queue, wc mqwatch.Conn) []string {
			f.put(w, "early-uncommitted", 0, true)
			f.put(f.open(f.connect(""), "Q", outOnly), "later", 0, false)
			got := browseAll(f, b, unmarked)
			if err := wc.Commit(f.ctx); err != nil {
				f.t.Fatal(err)
			}
			return append(got, browseAll(f, b, unmarked)...)
		}, "later,early-uncommitted"},
		{"marks belong to the handle", func(f *fixture, b, w mqwatch.Queue, _ mqwatch.Conn) []string {
			f.put(w, "a", 0, false)
			got := browseAll(f, b, unmarked)
			other := f.open(f.connect(""), "Q", browseIn)
			return append(got, browseAll(f, other, unmarked)...)
		}, "a,a"},
		{"a reopened handle starts without marks", func(f *fixture, b, w mqwatch.Queue, _ mqwatch.Conn) []string {
			f.put(w, "a", 0, false)
			c := f.connect("")
			h := f.open(c, "Q", browseIn)
			got := browseAll(f, h, unmarked)
			_ = h.Close(f.ctx)
			h = f.open(c, "Q", browseIn)
			return append(got, browseAll(f, h, unmarked)...)
		}, "a,a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, "DEFINE QLOCAL(Q)")
			b := f.open(f.connect(""), "Q", browseIn)
			wc := f.connect("")
			w := f.open(wc, "Q", outOnly)
			if got := strings.Join(tt.run(f, b, w, wc), ","); got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// backedOutAtScanPosition: a is marked and is the handle's scan position
// when another connection gets it and backs out; it comes back unmarked.
func backedOutAtScanPosition(f *fixture, b, w mqwatch.Queue, _ mqwatch.Conn) []string {
	unmarked := mqwatch.BrowseOptions{First: true, Unmarked: true}
	f.put(w, "a", 0, false)
	got := browseAll(f, b, unmarked)
	gc := f.connect("")
	f.get(f.open(gc, "Q", browseIn), mqwatch.GetOptions{Syncpoint: true})
	if err := gc.Backout(f.ctx); err != nil {
		f.t.Fatal(err)
	}
	f.put(w, "b", 0, false)
	return append(got, browseAll(f, b, unmarked)...)
}

func TestExpiry(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	q := f.open(c, "Q", mqwatch.OpenOptions{Input: true, Browse: true, Output: true})
	putExp := func(body string, tenths int32) {
		md := mqfmt.NewMQMD()
		md.Expiry = tenths
		if err := q.Put(f.ctx, &md, []byte(body), mqwatch.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	putExp("short", 10) // one second
	putExp("long", 600) // one minute
	f.put(q, "forever", 0, false)
	f.clk.Advance(400 * time.Millisecond)
	m, err := q.Browse(f.ctx, mqwatch.BrowseOptions{First: true})
	if err != nil || string(m.Data) != "short" || m.MD.Expiry != 6 {
		t.Fatalf("browse %q expiry %d %v; want short with 6 tenths left", m.Data, m.MD.Expiry, err)
	}
	f.clk.Advance(time.Second)
	if st := f.status("Q"); st.Depth != 3 {
		t.Fatalf("depth %d before anything reaches the expired message, want 3", st.Depth)
	}
	got := browseAll(f, q, mqwatch.BrowseOptions{First: true})
	if strings.Join(got, ",") != "long,forever" {
		t.Fatalf("browse after expiry %v", got)
	}
	if st := f.status("Q"); st.Depth != 2 {
		t.Fatalf("depth %d after the expired message was reached, want 2", st.Depth)
	}
	f.clk.Advance(time.Minute)
	if got := f.get(q, mqwatch.GetOptions{}); got != "forever" {
		t.Fatalf("get %q, want the message without expiry", got)
	}
	if f.status("Q").Depth != 0 {
		t.Fatal("expired message left on the queue")
	}
}

func TestGetByMsgIdAndCorrelId(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	q := f.open(f.connect(""), "Q", inOut)
	var ids [][24]byte
	for i := range 5 {
		md := mqfmt.NewMQMD()
		md.CorrelId = [24]byte{byte(i % 2)}
		if err := q.Put(f.ctx, &md, []byte{byte('0' + i)}, mqwatch.PutOptions{}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, md.MsgId)
	}
	m, err := q.Get(f.ctx, mqwatch.GetOptions{MsgId: &ids[3]})
	if err != nil || string(m.Data) != "3" {
		t.Fatalf("by MsgId: %q %v", m.Data, err)
	}
	_, err = q.Get(f.ctx, mqwatch.GetOptions{MsgId: &ids[3]})
	wantRC(t, err, mqfmt.RCNoMsgAvailable)
	wrong := [24]byte{1}
	_, err = q.Get(f.ctx, mqwatch.GetOptions{MsgId: &ids[2], CorrelId: &wrong})
	wantRC(t, err, mqfmt.RCNoMsgAvailable)
	m, err = q.Get(f.ctx, mqwatch.GetOptions{CorrelId: &wrong})
	if err != nil || string(m.Data) != "1" {
		t.Fatalf("by CorrelId: %q %v", m.Data, err)
	}
	dup := mqfmt.NewMQMD()
	dup.MsgId = ids[0]
	dup.Priority = 7
	if err := q.Put(f.ctx, &dup, []byte("dup"), mqwatch.PutOptions{}); err != nil {
		t.Fatal(err)
	}
	m, err = q.Get(f.ctx, mqwatch.GetOptions{MsgId: &ids[0]})
	if err != nil || string(m.Data) != "dup" {
		t.Fatalf("duplicate MsgId: got %q, want the higher-priority duplicate first", m.Data)
	}
}

package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
)

// fakeShared is a room's model the test folds by hand.
type fakeShared struct {
	st     *model.State
	latest *model.State
	ch     chan *model.State
}

func newFakeShared() *fakeShared {
	st := model.New(func() time.Time { return clock }, time.Hour)
	return &fakeShared{st: st, latest: st.Picture(nil, ""), ch: make(chan *model.State, 1)}
}

// fold folds dlq dead letters as poll seq and returns the picture.
func (f *fakeShared) fold(seq uint64, dlq int) *model.State {
	f.st.Fold(incident(seq, dlq))
	f.latest = f.st.Picture(f.latest, "QM1")
	return f.latest
}

func (f *fakeShared) Pictures() <-chan *model.State { return f.ch }
func (f *fakeShared) Latest() *model.State          { return f.latest }
func (f *fakeShared) Reannotate() *model.State {
	f.latest = f.latest.Reannotated()
	return f.latest
}

// TestSharedModelIsShownAsItIs: an App on a room's model shows the latest
// picture from its first frame, takes each new one as it is, holds the
// newest while frozen, and hands runs to the room.
func TestSharedModelIsShownAsItIs(t *testing.T) {
	sh := newFakeShared()
	first := sh.fold(1, 30)
	a, _ := newTestApp(t, 120, 35, Options{Shared: sh})
	a.Init() // its commands wait on the room and the clock: not run here
	if a.State() != first {
		t.Fatal("the App did not start on the room's latest picture")
	}
	if v := a.View(); !strings.Contains(v, "QM1.DEADQ") {
		t.Fatalf("first frame without the room's DEADQ:\n%s", v)
	}
	for _, c := range []struct {
		name   string
		keys   []string
		dlq    int
		onView int // which picture is on view after: 1 the one sent, 0 the one before
	}{
		{"a new picture is shown", nil, 40, 1},
		{"frozen: held", []string{"f"}, 50, 0},
		{"frozen still: the newest held", nil, 60, 0},
	} {
		before := a.State()
		pic := sh.fold(uint64(c.dlq), c.dlq)
		for _, k := range c.keys {
			a.Update(keyMsg(k))
		}
		a.Update(pictureMsg{pic: pic, ok: true})
		if want := []*model.State{before, pic}[c.onView]; a.State() != want {
			t.Fatalf("%s: the App shows another picture", c.name)
		}
	}
	a.Update(keyMsg("f"))
	if a.State() != sh.latest {
		t.Fatal("resuming did not show the newest picture held")
	}
}

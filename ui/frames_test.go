package ui

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/themes"
)

// sharingRoom is a room's model whose sessions share drawings.
type sharingRoom struct {
	*fakeShared
	fc *FrameCache
}

func (r sharingRoom) Frames() *FrameCache { return r.fc }

// seat is how a session of the test's room is started: its terminal, its
// colours, and whether it sits in a war room (as member self).
type seat struct {
	w, h    int
	profile termenv.Profile
	self    int // 0: no room
	viewer  bool
}

// roomSeats: identical terminals, the sizes the issue names, another
// colour profile at one size, and two members of a war room whose presence
// lines differ ("(you)").
var roomSeats = []seat{
	{80, 24, termenv.Ascii, 0, false}, {80, 24, termenv.Ascii, 0, false},
	{200, 60, termenv.Ascii, 0, false}, {200, 60, termenv.Ascii, 0, false},
	{120, 40, termenv.Ascii, 0, false}, {120, 40, termenv.ANSI256, 0, false},
	{100, 30, termenv.Ascii, 1, false}, {100, 30, termenv.Ascii, 2, true},
}

// seated is a session of the test's room and its twin: the same App on the
// same pictures, keys and clock, in a room that shares nothing.
type seated struct {
	seat
	app, twin *App
}

func (s seat) open(t *testing.T, shared SharedModel, now func() time.Time, dir string) *App {
	t.Helper()
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(s.profile)
	th, err := themes.Load("dark")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Sources: []Source{&fakeSource{name: "QM1"}}, Renderer: r, Theme: th, Now: now, Shared: shared,
		ExportDir: dir, WarRoom: s.viewer}
	if s.self != 0 {
		o.Room = newFakeRoom()
	}
	a := New(o)
	a.Update(windowSize(s.w, s.h))
	return a
}

// frameWalkKeys are the walk's keys and the dashboard's own: sorting,
// focus, filters typed and kept, help, the palette, freezing, the DEADQ;
// esc weighted up, so the walk keeps coming back to the dashboard. W is
// left out: it writes a file, which the twin would then find there.
var frameWalkKeys = slices.DeleteFunc(append(slices.Clone(walkKeys),
	strings.Fields("s s tab tab / Q M 1 backspace enter / esc ? ? : esc f f d esc j j k G g space esc esc esc esc esc F F T p p")...),
	func(k string) bool { return k == "W" })

// TestSharedFramesShowEachSessionWhatItWouldDrawAlone walks a room of
// sessions at several sizes and looks (some identical) with seeded random
// keys, pictures and clock moves, and checks after every step that each
// session's frame, drawn through the room's cache, is the frame the same
// App draws with sharing off, and the frame of its twin, which never
// shares (so the shared row orders are checked too); and that a war-room
// member's presence line, kept between room states, is the one it would
// draw now.
func TestSharedFramesShowEachSessionWhatItWouldDrawAlone(t *testing.T) {
	steps := 400
	if testing.Short() {
		steps = 120
	}
	for _, seed := range []uint64{1, 2} {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			walkSharedRoom(t, seed, steps)
		})
	}
}

func walkSharedRoom(t *testing.T, seed uint64, steps int) {
	sh := newFakeShared()
	sh.fold(1, 30)
	room := sharingRoom{fakeShared: sh, fc: NewFrameCache()}
	at := clock
	now := func() time.Time { return at }
	var seats []seated
	dir := t.TempDir()
	for _, s := range roomSeats {
		seats = append(seats, seated{seat: s, app: s.open(t, room, now, dir), twin: s.open(t, sh, now, dir)})
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	shared, onDash := 0, 0
	for step := range steps {
		if rng.IntN(5) == 0 {
			// The clock moves between pictures too: headers' ages and the
			// alerts' lives change under a picture the cache still holds.
			at = at.Add(time.Duration(rng.IntN(90)) * time.Second)
		}
		if step%10 == 0 {
			pic := foldBusier(sh, uint64(step+2), rng)
			for _, s := range seats {
				s.app.Update(pictureMsg{pic: pic, ok: true})
				s.twin.Update(pictureMsg{pic: pic, ok: true})
			}
			tellRoom(seats, step)
		}
		k := frameWalkKeys[rng.IntN(len(frameWalkKeys))]
		for _, s := range pressing(seats, rng) {
			press(s.app, k)
			press(s.twin, k)
		}
		frames := drawAll(seats)
		shared += sameDrawings(frames)
		for i, s := range seats {
			if _, ok := s.app.top().(*dashboard); ok {
				onDash++
			}
			s.app.drawAlone = true
			alone := s.app.View()
			s.app.drawAlone = false
			if frames[i] != alone {
				t.Fatalf("step %d (key %q), session %d (%dx%d): the shared frame differs from its own\nshared:\n%s\nalone:\n%s", step, k, i, s.w, s.h, frames[i], alone)
			}
			if kept, now := s.app.room.presence(&s.app.st, s.app.look, s.w), s.app.room.drawPresence(&s.app.st, s.w); s.self != 0 && kept != now {
				t.Fatalf("step %d (key %q), session %d: the presence line kept is not the one drawn now\nkept: %s\nnow:  %s", step, k, i, kept, now)
			}
			if twin := s.twin.View(); frames[i] != twin {
				t.Fatalf("step %d (key %q), session %d (%dx%d): the frame differs from its twin's, which shares nothing\nshared:\n%s\ntwin:\n%s", step, k, i, s.w, s.h, frames[i], twin)
			}
		}
	}
	t.Logf("%d steps, %d sessions: %d session-frames on the dashboard, %d taken from another session's drawing", steps, len(seats), onDash, shared)
	if shared == 0 {
		t.Fatal("no session ever took another's drawing: the walk proves nothing about sharing")
	}
}

// pressing is who presses the step's key: one session, or, three times
// in four, every session at its terminal's size (colleagues reading the
// same screen, whose frames should be drawn once).
func pressing(seats []seated, rng *rand.Rand) []seated {
	one := seats[rng.IntN(len(seats))]
	if rng.IntN(4) == 0 {
		return []seated{one}
	}
	var out []seated
	for _, s := range seats {
		if s.w == one.w && s.h == one.h {
			out = append(out, s)
		}
	}
	return out
}

// foldBusier folds the incident with two dozen more queues, filled at
// random, so that each sort orders the rows its own way and the lists
// scroll, and returns the picture.
func foldBusier(f *fakeShared, seq uint64, rng *rand.Rand) *model.State {
	snap := incident(seq, 30+rng.IntN(40))
	for i := range 24 {
		snap.Queues = append(snap.Queues, view(fmt.Sprintf("APP.Q%02d", i), int32(rng.IntN(5000)), 5000, 3, "", mqwatch.RoleInput, int32(rng.IntN(3))))
	}
	sort.Slice(snap.Queues, func(i, j int) bool { return snap.Queues[i].Info.Name < snap.Queues[j].Info.Name })
	f.st.Fold(snap)
	f.latest = f.st.Picture(f.latest, "QM1")
	return f.latest
}

// drawAll draws every session at once, as a room's sessions do.
func drawAll(seats []seated) []string {
	out := make([]string, len(seats))
	var wg sync.WaitGroup
	for i, s := range seats {
		wg.Go(func() { out[i] = s.app.View() })
	}
	wg.Wait()
	return out
}

// sameDrawings counts the frames that are another's very string: drawn
// once, shown twice.
func sameDrawings(frames []string) int {
	n := 0
	for i := range frames {
		for j := range i {
			if len(frames[i]) > 0 && unsafe.StringData(frames[i]) == unsafe.StringData(frames[j]) {
				n++
				break
			}
		}
	}
	return n
}

// tellRoom gives the room's members its state: who is in it changes with
// the step, so presence lines change under the cache.
func tellRoom(seats []seated, step int) {
	members := []Member{alice, bob}
	if step%20 == 0 {
		members = append(members, Member{ID: 3, User: "carol", Role: "operator", View: SessionView{Pointing: true, Cursor: step % 7}})
	}
	for _, s := range seats {
		if s.self == 0 {
			continue
		}
		st := RoomState{Self: s.self, Members: members}
		s.app.Update(roomMsg{st: st, ok: true})
		s.twin.Update(roomMsg{st: st, ok: true})
	}
}

// TestComposeSharedLaysOutAsComposeDoes: a frame put together from a body
// laid out once (composeShared) is the frame compose makes of the same
// parts, whatever the widths: lines narrower and wider than the terminal,
// wide runes, colour, a header of one or two lines, a footer of up to three.
func TestComposeSharedLaysOutAsComposeDoes(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	red := r.NewStyle().Foreground(lipgloss.Color("9"))
	words := []string{"QM1.DEADQ", "▸", "数据", "⚠ 3 crit", red.Render("● 2s ago"), "    ", "x"}
	rng := rand.New(rand.NewPCG(7, 0))
	line := func() string {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(words[rng.IntN(len(words))])
		}
		return b.String()
	}
	block := func(n int) string {
		ls := make([]string, n)
		for i := range ls {
			ls[i] = line()
		}
		return strings.Join(ls, "\n")
	}
	fc := NewFrameCache()
	pic := model.New(nil, time.Hour).Picture(nil, "")
	for i := range 500 {
		w, h := 60+rng.IntN(140), 16+rng.IntN(44)
		header, crumbs, footer := block(1+rng.IntN(2)), block(1), block(1+rng.IntN(3))
		bodyH := bodyRows(h, header, footer)
		body := layBody(block(rng.IntN(bodyH+5)), bodyH)
		bk := bodyKey{pic: pic, w: w, h: bodyH, clock: fmt.Sprint(i)}
		got, ok := composeShared(fc, pic, bk, body, w, h, header, crumbs, footer)
		if want := compose(w, h, header, crumbs, body.text, footer, bodyH); !ok || got != want {
			t.Fatalf("case %d (%dx%d): ok %v\ngot:\n%s\nwant:\n%s", i, w, h, ok, got, want)
		}
	}
}

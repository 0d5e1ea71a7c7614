package ui

import (
	"reflect"
	"strings"
	"sync"

	"github.com/charmbracelet/lipgloss"

	"github.com/poisonwatch/poisonwatch/model"
)

// FrameSharer is a SharedModel whose sessions may share drawings: the
// room's, so that N sessions showing the same dashboard of the same picture
// draw it once.
type FrameSharer interface {
	Frames() *FrameCache
}

// FrameCache keeps what the sessions of a room drew from the latest
// pictures: the dashboards' row orders, their bodies (and the bodies'
// lines laid out for a frame), the footers and whole frames, each under a
// key that names every input of what it holds. A session takes a drawing
// only under its own key, so it sees exactly what it would have drawn
// itself. Only two pictures' worth is kept (the newest, and the one a slow
// session may still draw), and at most maxDrawings of each kind a
// picture: the rest is drawn and dropped.
type FrameCache struct {
	mu       sync.Mutex
	cur, old *frameGen
}

// maxDrawings bounds each kind of drawing kept per picture: sessions at
// more sizes than this draw for themselves.
const maxDrawings = 64

// frameGen is what was drawn from one picture.
type frameGen struct {
	pic     *model.State
	orders  map[orderKey][]*model.QueueState
	bodies  map[bodyKey]laidBody
	padded  map[paddedKey]string
	footers map[footerKey]string
	frames  map[frameKey]string
}

// NewFrameCache is an empty cache, for a room's sessions to share.
func NewFrameCache() *FrameCache { return &FrameCache{} }

// gen is the drawings of pic; a picture not seen before starts a
// generation and the oldest is dropped. Called under mu.
func (f *FrameCache) gen(pic *model.State) *frameGen {
	switch {
	case f.cur != nil && f.cur.pic == pic:
		return f.cur
	case f.old != nil && f.old.pic == pic:
		return f.old
	}
	f.old, f.cur = f.cur, &frameGen{pic: pic, orders: map[orderKey][]*model.QueueState{},
		bodies: map[bodyKey]laidBody{}, padded: map[paddedKey]string{}, footers: map[footerKey]string{}, frames: map[frameKey]string{}}
	return f.cur
}

// lookup returns what m holds under k in pic's generation, or draws it
// with draw and keeps it while the generation has room. draw runs outside
// the lock: sessions draw different things at once, and two drawing the
// same thing both draw the same.
func lookup[K comparable, V any](f *FrameCache, pic *model.State, m func(*frameGen) map[K]V, k K, draw func() V) V {
	if f == nil || pic == nil {
		return draw()
	}
	f.mu.Lock()
	v, ok := m(f.gen(pic))[k]
	f.mu.Unlock()
	if ok {
		return v
	}
	v = draw()
	f.mu.Lock()
	if got := m(f.gen(pic)); len(got) < maxDrawings {
		got[k] = v
	}
	f.mu.Unlock()
	return v
}

// orderKey names a dashboard's row order: a picture's queue manager (which
// nothing changes) sorted one way.
type orderKey struct {
	q  *model.QMgrState
	by queueSort
}

// order is q's queues sorted by s, sorted once per picture for every
// session: the slice is shared, read it only.
func (f *FrameCache) order(pic *model.State, q *model.QMgrState, s queueSort) []*model.QueueState {
	if pic == nil || !pic.IsPicture() {
		return sortQueues(q, s)
	}
	return lookup(f, pic, func(g *frameGen) map[orderKey][]*model.QueueState { return g.orders }, orderKey{q, s},
		func() []*model.QueueState { return sortQueues(q, s) })
}

// styleIDs numbers the distinct looks (theme and colour profile, as the
// styles render), so a key carries a number, not the styles.
var styleIDs = struct {
	sync.Mutex
	ids map[string]int
}{ids: map[string]int{}}

// styleID is the number of the look st renders: two sessions with the
// same number render every style alike.
func styleID(st *Styles) int {
	var b strings.Builder
	v := reflect.ValueOf(st).Elem()
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue // the memo of what they rendered
		}
		if s, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			b.WriteString(s.Render("x"))
			b.WriteByte(0)
		}
	}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(st.Theme)) {
		b.WriteString(reflect.ValueOf(st.Theme).FieldByIndex(f.Index).String())
		b.WriteByte(0)
	}
	styleIDs.Lock()
	defer styleIDs.Unlock()
	id, ok := styleIDs.ids[b.String()]
	if !ok {
		id = len(styleIDs.ids) + 1
		styleIDs.ids[b.String()] = id
	}
	return id
}

// sharedFrame draws the frame through the room's cache, when every input
// of View is in the keys: the dashboard on view with nothing over it, on a
// picture nobody changes, neither frozen nor warming (a held picture is
// the session's own), without a column of marks (so are they). ok false:
// the App draws alone, as outside a room.
func (a *App) sharedFrame() (frame string, ok bool) {
	fc, pic := a.sess.frames, a.state
	d, onDash := a.top().(*dashboard)
	if fc == nil || a.drawAlone || !onDash || d.q == nil || a.showHelp || a.pal.active || a.sess.still() ||
		a.opt.Playback != nil || a.opt.Fleet != nil || !pic.IsPicture() || d.grid.Marked != nil {
		return "", false
	}
	header, crumbs := a.headerView(), a.crumbsView()
	fk := footerKey{look: a.look, width: a.width, flash: a.flash, keys: keysSay(a.shortHelp(), a.keys.Fleet, a.keys.Help, a.keys.Quit)}
	footer := lookup(fc, pic, func(g *frameGen) map[footerKey]string { return g.footers }, fk, a.footerView)
	bodyH := bodyRows(a.height, header, footer)
	bk := bodyKey{pic: pic, qm: a.qm, look: a.look, w: a.width, h: bodyH, dash: d.key(), clock: d.alerts.clockSays()}
	key := frameKey{body: bk, height: a.height, header: header, crumbs: crumbs, footer: footer}
	return lookup(fc, pic, func(g *frameGen) map[frameKey]string { return g.frames }, key, func() string {
		body := lookup(fc, pic, func(g *frameGen) map[bodyKey]laidBody { return g.bodies }, bk, func() laidBody {
			return layBody(d.view(a, a.width, bodyH), bodyH)
		})
		if f, ok := composeShared(fc, pic, bk, body, a.width, a.height, header, crumbs, footer); ok {
			return f
		}
		return compose(a.width, a.height, header, crumbs, body.text, footer, bodyH)
	}), true
}

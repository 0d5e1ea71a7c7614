package warroom

import (
	"cmp"
	"context"
	"fmt"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	bm "github.com/charmbracelet/wish/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/poisonwatch/poisonwatch/ui"
)

func gosshFingerprint(k AuthorizedKey) string { return gossh.FingerprintSHA256(k.Key) }

// run is the session middleware. A session without a terminal is refused
// before it costs anything; otherwise it reserves one of MaxSessions, takes
// a seat and subscriptions, and runs its program; everything is released
// when the program ends, whatever ended it.
func (s *Server) run(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		_, windows, ok := sess.Pty()
		if !ok {
			wish.Fatalln(sess, "poisonwatch serve: the dashboard needs a terminal: ssh -t")
			return
		}
		l, why := s.reserve(sess)
		if why != "" {
			wish.Fatalln(sess, "poisonwatch serve: "+why)
			return
		}
		sess.Context().SetValue(liveKey{}, l)
		release, lastKey, err := s.program(sess, l)
		if err != nil {
			s.drop(l)
			wish.Fatalln(sess, "poisonwatch serve: "+err.Error())
			return
		}
		ctx, cancel := context.WithCancel(sess.Context())
		go func() {
			for {
				select {
				case <-ctx.Done():
					l.prog.Quit()
					return
				case w := <-windows:
					l.prog.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
				}
			}
		}()
		go s.watchIdle(ctx, l, lastKey)
		if d := s.cfg.MaxTime; d > 0 {
			stop := s.cfg.clock.AfterFunc(d, func() { s.end(l, fmt.Sprintf("connected for %s: disconnected", d)) })
			defer stop()
		}
		if _, err := l.prog.Run(); err != nil && ctx.Err() == nil {
			fmt.Fprintf(s.cfg.Log, "session %s: %v\n", sessionName(sess), err)
		}
		l.prog.Kill()
		cancel()
		s.drop(l)
		release()
		fmt.Fprintf(s.cfg.Log, "session %s ended: %s\n", sessionName(sess), cmp.Or(l.why(s), "the client left"))
		next(sess)
	}
}

// reserve takes one of MaxSessions for sess, or says why not.
func (s *Server) reserve(sess ssh.Session) (*live, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.stopping:
		return nil, goodbye
	case len(s.live) >= s.cfg.MaxSessions:
		fmt.Fprintf(s.cfg.Log, "refused %s: %d sessions already\n", sessionName(sess), s.cfg.MaxSessions)
		return nil, fmt.Sprintf("the room is full (%d sessions); try again later", s.cfg.MaxSessions)
	}
	l := &live{sess: sess}
	s.live[l] = struct{}{}
	return l, ""
}

func (s *Server) drop(l *live) {
	s.mu.Lock()
	delete(s.live, l)
	s.mu.Unlock()
}

// end quits a session's program, saying why.
func (s *Server) end(l *live, why string) {
	s.mu.Lock()
	if l.reason == "" {
		l.reason = why
	}
	s.mu.Unlock()
	l.prog.Quit()
}

func (l *live) why(s *Server) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return l.reason
}

// program builds a session's Bubble Tea program into l: its own App on the
// room's model, with its own subscriptions, seat and operations. release
// gives them back.
func (s *Server) program(sess ssh.Session, l *live) (release func(), lastKey *atomic.Int64, err error) {
	who, ok := s.identify(sess)
	if !ok {
		return nil, nil, fmt.Errorf("unknown key")
	}
	seat := s.room.Join(who)
	pics := s.fold.Subscribe()
	var subs []*Sub
	var sources []ui.Source
	for _, f := range s.feeds {
		sub := f.Subscribe()
		subs = append(subs, sub)
		sources = append(sources, sub)
	}
	release = func() {
		for _, sub := range subs {
			sub.Close()
		}
		pics.Close()
		seat.Leave()
	}
	files := s.filesFor(who)
	out := newSessionOut(sess)
	model, err := s.cfg.App(Session{Who: who, Sources: sources, Shared: pics, Room: seat, Ctx: sess.Context(), Files: files,
		Ops:      &SessionOps{Engines: s.cfg.Engines(who.Role), Seat: seat, Locks: s.locks, Files: files},
		Renderer: bm.MakeRenderer(out), Args: sess.Command()})
	if err != nil {
		release()
		return nil, nil, err
	}
	lastKey = new(atomic.Int64)
	lastKey.Store(s.cfg.clock.Now().UnixNano())
	// No tea.WithContext: run quits the program when the session ends, so
	// a client that disconnects is a normal end, not an error in the log.
	// The session's context still reaches the App's actions (Ctx above), so
	// a run stops when its operator drops.
	// No signal handler: a session's program must not end itself on the
	// server's SIGINT (ctrl+c where serve runs) before Stop has marked it
	// stopping, or its client would see the connection close with no word.
	opts := append([]tea.ProgramOption{tea.WithAltScreen(), tea.WithoutSignalHandler()}, s.ioOptions(out, lastKey)...)
	p := tea.NewProgram(clampSize{model}, opts...)
	s.mu.Lock()
	l.prog = p
	s.mu.Unlock()
	fmt.Fprintf(s.cfg.Log, "session %s as %s (%s, %s)\n", sessionName(sess), who.User, who.Role, who.Fingerprint)
	return release, lastKey, nil
}

// ioOptions connect the program to the session through its rate-limited
// keyboard, which notes when the user last typed for the idle timeout.
func (s *Server) ioOptions(sess ssh.Session, lastKey *atomic.Int64) []tea.ProgramOption {
	pty, _, ok := sess.Pty()
	if ok && !sess.EmulatedPty() {
		return []tea.ProgramOption{tea.WithInput(newInputReader(pty.Slave, lastKey, s.cfg.clock)), tea.WithOutput(pty.Slave)}
	}
	return []tea.ProgramOption{tea.WithInput(newInputReader(sess, lastKey, s.cfg.clock)), tea.WithOutput(sess)}
}

// watchIdle ends the session when its user typed nothing for the idle
// timeout; it returns when the session ends. It runs only while the
// program runs, so its Quit never waits on a program that never started.
func (s *Server) watchIdle(ctx context.Context, l *live, lastKey *atomic.Int64) {
	d := s.cfg.IdleTimeout
	if d <= 0 {
		return
	}
	ticks, stop := s.cfg.clock.Tick(min(d/4, 5*time.Second))
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticks:
			if s.cfg.clock.Now().Sub(time.Unix(0, lastKey.Load())) >= d {
				s.end(l, fmt.Sprintf("idle for %s: disconnected", d))
				return
			}
		}
	}
}

// Bounds of a session's screen: a client may claim any window size, and a
// frame costs what it covers; beyond these the dashboard draws the top left.
const (
	maxWidth  = 1000
	maxHeight = 500
)

// clampSize is a session's model with its window size bounded.
type clampSize struct{ tea.Model }

func (c clampSize) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if w, ok := msg.(tea.WindowSizeMsg); ok {
		msg = tea.WindowSizeMsg{Width: min(max(w.Width, 1), maxWidth), Height: min(max(w.Height, 1), maxHeight)}
	}
	m, cmd := c.Model.Update(msg)
	return clampSize{m}, cmd
}

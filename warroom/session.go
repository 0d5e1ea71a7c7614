package warroom

import (
	"cmp"
	"context"
	"fmt"
	"io"
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

// program builds a session's Bubble Tea program: its own App on its own
// subscriptions, seat and operations. Everything is released when the
// session's context ends.
func (s *Server) program(sess ssh.Session) *tea.Program {
	if sess.PublicKey() == nil {
		wish.Fatalln(sess, "poisonwatch serve: public key authentication only")
		return nil
	}
	who, ok := s.identify(sess)
	if !ok {
		wish.Fatalln(sess, "poisonwatch serve: unknown key")
		return nil
	}
	seat := s.room.Join(who)
	var subs []*Sub
	var sources []ui.Source
	for _, f := range s.feeds {
		sub := f.Subscribe()
		subs = append(subs, sub)
		sources = append(sources, sub)
	}
	ctx := sess.Context()
	release := func() {
		for _, sub := range subs {
			sub.Close()
		}
		seat.Leave()
	}
	files := s.filesFor(who)
	model, err := s.cfg.App(Session{Who: who, Sources: sources, Room: seat, Ctx: ctx, Files: files,
		Ops:      &SessionOps{Engines: s.cfg.Engines(who.Role), Seat: seat, Locks: s.locks, Files: files},
		Renderer: bm.MakeRenderer(sess), Args: sess.Command()})
	if err != nil {
		release()
		wish.Fatalln(sess, "poisonwatch serve: "+err.Error())
		return nil
	}
	var lastKey atomic.Int64
	lastKey.Store(time.Now().UnixNano())
	// No tea.WithContext: the SSH middleware quits the program when the
	// session ends, so a client that disconnects is a normal end, not an
	// error in the log. The session's context still reaches the App's
	// actions (Ctx above), so a run stops when its operator drops.
	opts := append([]tea.ProgramOption{tea.WithAltScreen()}, s.ioOptions(sess, &lastKey)...)
	p := tea.NewProgram(model, opts...)
	l := &live{sess: sess, prog: p}
	s.mu.Lock()
	s.live[l] = struct{}{}
	s.mu.Unlock()
	sess.Context().SetValue(liveKey{}, l)
	fmt.Fprintf(s.cfg.Log, "session %s as %s (%s, %s)\n", sessionName(sess), who.User, who.Role, who.Fingerprint)
	go func() {
		s.watchIdle(ctx, l, &lastKey)
		s.mu.Lock()
		delete(s.live, l)
		s.mu.Unlock()
		release()
		fmt.Fprintf(s.cfg.Log, "session %s ended: %s\n", sessionName(sess), cmp.Or(l.reason, "the client left"))
	}()
	return p
}

// ioOptions connect the program to the session, noting when the user last
// typed for the idle timeout.
func (s *Server) ioOptions(sess ssh.Session, lastKey *atomic.Int64) []tea.ProgramOption {
	pty, _, ok := sess.Pty()
	if ok && !sess.EmulatedPty() {
		return []tea.ProgramOption{tea.WithInput(touchReader{pty.Slave, lastKey}), tea.WithOutput(pty.Slave)}
	}
	return []tea.ProgramOption{tea.WithInput(touchReader{sess, lastKey}), tea.WithOutput(sess)}
}

type touchReader struct {
	r    io.Reader
	last *atomic.Int64
}

func (t touchReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 {
		t.last.Store(time.Now().UnixNano())
	}
	return n, err
}

// watchIdle ends the session when its user typed nothing for the idle
// timeout; it returns when the session ends.
func (s *Server) watchIdle(ctx context.Context, l *live, lastKey *atomic.Int64) {
	d := s.cfg.IdleTimeout
	if d <= 0 {
		<-ctx.Done()
		return
	}
	t := time.NewTicker(min(d/4, 5*time.Second))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if time.Since(time.Unix(0, lastKey.Load())) >= d {
				s.mu.Lock()
				l.reason = fmt.Sprintf("idle for %s: disconnected", d)
				s.mu.Unlock()
				l.prog.Quit()
			}
		}
	}
}

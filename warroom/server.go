package warroom

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/journal"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	charmlog "github.com/charmbracelet/log"
	"github.com/charmbracelet/ssh"
	"github.com/charmbracelet/wish"
	gossh "golang.org/x/crypto/ssh"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/confine"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/ui"
)

// Session is what the server knows of a connected session when it builds
// the session's program.
type Session struct {
	Who     Identity
	Sources []ui.Source // this session's subscriptions to the shared feeds
	// Shared is the room's model this session shows (ui.Options.Shared).
	Shared   ui.SharedModel
	Room     ui.Room
	Ops      ui.Operations // role-checked, locked, announced
	Renderer *lipgloss.Renderer
	Args     []string // the SSH command: per-session flags such as --theme
	// Files is the session's access to host files (ui.Options.Files).
	Files Files
	Ctx   context.Context
}

// Config configures a Server.
type Config struct {
	Listen      string
	HostKeyPEM  []byte
	Keys        Keys
	MaxSessions int
	// IdleTimeout closes a session whose user typed nothing for this long
	// (the dashboard's own redraws do not count); 0 never.
	IdleTimeout time.Duration
	// MaxTime ends a session that has lasted this long, whatever it does,
	// with a message; the connection is closed a minute later if it is
	// still there. 0: never.
	MaxTime time.Duration
	// Sources are the watchers; the server fans each out to every session.
	Sources []ui.Source
	// The room's model, folded once for every session, as ui.Options
	// describes a session's: the poll interval, the book of alert
	// histories (nil: the room's own), the consumer styles and asf pause
	// thresholds per queue manager, and the demo's warm-up (closed once
	// its simulated history has been read).
	Interval       time.Duration
	Alerts         *model.AlertBook
	ConsumerStyles map[string]map[string]actions.Style
	PauseAfter     map[string]map[string]int32
	// UnattendedAfter is R8f's threshold per queue manager (missing: a day).
	UnattendedAfter map[string]time.Duration
	Warming         <-chan struct{}
	// Engines returns the operations for a role: read-only engines for
	// viewers, so the engine itself refuses what the role check missed.
	Engines func(Role) ui.Operations
	// App builds a session's program model.
	App func(s Session) (tea.Model, error)
	Log io.Writer
	// HandshakeTimeout is how long a connection may take to authenticate
	// and open its session (default DefaultHandshakeTimeout).
	HandshakeTimeout time.Duration
	// MaxUnauthPerAddr and MaxUnauth cap connections not yet in a session,
	// per source address and in all (defaults DefaultMaxUnauthPerAddr and
	// DefaultMaxUnauth).
	MaxUnauthPerAddr, MaxUnauth int
	// Files is the directory operators' sessions read and write files in
	// (rules tables, exports, imports, archives they name); nil: none.
	Files *confine.Dir

	// Journal is the room's account of acts: the room announces each
	// entry, and writes who joined and left to it; nil: none.
	Journal *journal.Journal

	// clock is what session timers run on; nil: the wall clock.
	clock clock
}

// Server is poisonwatch serve: one room, one feed per watcher, many sessions.
type Server struct {
	cfg   Config
	room  *Room
	fold  *Fold
	feeds []*Feed
	locks *Locks
	srv   *ssh.Server
	gate  *gate

	mu       sync.Mutex
	live     map[*live]struct{}
	stopping bool
}

// live is one running session.
type live struct {
	sess   ssh.Session
	prog   *tea.Program
	reason string // why the server ended it ("server stopping", "idle ...")
}

// New builds the server; Serve starts it.
func New(cfg Config) (*Server, error) {
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = 32
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.clock == nil {
		cfg.clock = wallClock{}
	}
	// The middleware logs a session's end through the global logger: to
	// the server's log, not wherever the process's stderr happens to go.
	charmlog.SetOutput(cfg.Log)
	s := &Server{cfg: cfg, room: NewRoom(), locks: NewLocks(), live: map[*live]struct{}{}}
	if cfg.Journal != nil {
		s.room.Tell(cfg.Journal)
	}
	s.gate = &gate{timeout: cmp.Or(cfg.HandshakeTimeout, DefaultHandshakeTimeout), byAddr: map[string][]*gatedConn{},
		perAddr: cmp.Or(cfg.MaxUnauthPerAddr, DefaultMaxUnauthPerAddr), total: cmp.Or(cfg.MaxUnauth, DefaultMaxUnauth),
		log: func(f string, a ...any) { fmt.Fprintf(cfg.Log, f, a...) }}
	s.fold = NewFold(roomModel(&cfg))
	for _, src := range cfg.Sources {
		s.feeds = append(s.feeds, NewFeed(src, s.fold))
	}
	srv, err := wish.NewServer(
		wish.WithAddress(cfg.Listen),
		wish.WithHostKeyPEM(cfg.HostKeyPEM),
		// Public keys only: with no password or keyboard-interactive handler
		// the server offers neither method.
		wish.WithPublicKeyAuth(s.authorize),
		ssh.WrapConn(s.gate.admit),
		func(srv *ssh.Server) error { srv.ServerConfigCallback = s.gate.serverConfig; return nil },
		// A connection silent both ways for longer than a session may be
		// idle is dead: the session's own idle timeout ends first, with
		// its message.
		wish.WithIdleTimeout(connIdle(cfg.IdleTimeout)),
		wish.WithMaxTimeout(connIdle(cfg.MaxTime)),
		wish.WithMiddleware(s.run, s.admit),
	)
	if err != nil {
		return nil, err
	}
	s.srv = srv
	return s, nil
}

func connIdle(session time.Duration) time.Duration {
	if session <= 0 {
		return 0
	}
	return session + time.Minute
}

// roomModel is the state the room folds into: every queue manager the
// sources watch, with what the snapshots do not say of it.
func roomModel(cfg *Config) *model.State {
	st := model.New(nil, cfg.Interval)
	if cfg.Alerts != nil {
		st.Book = cfg.Alerts
	}
	for _, src := range cfg.Sources {
		q := st.QMgr(src.Name())
		q.Styles, q.PauseAfter = cfg.ConsumerStyles[src.Name()], cfg.PauseAfter[src.Name()]
		q.UnattendedAfter = cfg.UnattendedAfter[src.Name()]
	}
	st.Warming = cfg.Warming != nil
	st.Journal = cfg.Journal // the alerts about acts read the room's
	return st
}

// Room is the server's room.
func (s *Server) Room() *Room { return s.room }

// Feeds are the fan-outs of the sources, in order.
func (s *Server) Feeds() []*Feed { return s.feeds }

// Serve runs the feeds and accepts sessions on l until Stop.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	for _, f := range s.feeds {
		go f.Run(ctx)
	}
	if w := s.cfg.Warming; w != nil {
		go func() {
			select {
			case <-w:
				s.fold.Warmed()
			case <-ctx.Done():
			}
		}()
	}
	err := s.srv.Serve(l)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Stop says goodbye to every session ("server stopping"), waits up to
// ctx for them to leave, and closes the listener.
func (s *Server) Stop(ctx context.Context) error {
	s.mu.Lock()
	s.stopping = true
	var progs []*tea.Program
	for l := range s.live {
		l.reason = goodbye
		if l.prog != nil {
			progs = append(progs, l.prog)
		}
	}
	s.mu.Unlock()
	for _, p := range progs {
		go p.Quit() // a program busy writing to a slow client must not hold up the others
	}
	err := s.srv.Shutdown(ctx)
	if err != nil {
		// Sessions that did not end in time are told why and closed.
		s.mu.Lock()
		for l := range s.live {
			fmt.Fprint(l.sess, "\r\npoisonwatch serve: "+goodbye+"\r\n")
			l.sess.Close()
		}
		s.mu.Unlock()
		s.srv.Close()
	}
	s.room.Stop()
	s.fold.close()
	return err
}

const goodbye = "server stopping"

// admit runs first for every session: it refuses a forwarded agent, and
// tells the user why the server ended the session.
func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		s.gate.through(sess.Context())
		if ssh.AgentRequested(sess) {
			// The server never uses a client's agent; a forwarded agent
			// would put the client's keys within reach of this host.
			fmt.Fprintf(s.cfg.Log, "refused %s: agent forwarding requested\n", sessionName(sess))
			wish.Fatalln(sess, "poisonwatch serve: agent forwarding is refused: connect without -A (ForwardAgent no)")
			return
		}
		next(sess)
		if l, ok := sess.Context().Value(liveKey{}).(*live); ok {
			s.mu.Lock()
			r := l.reason
			s.mu.Unlock()
			if r != "" {
				wish.Println(sess, "poisonwatch serve: "+r)
			}
		}
	}
}

type liveKey struct{}

// authorize is the public key check: the key must be authorized, unexpired
// and offered from an address its from= allows. Every refusal is logged
// with the key's fingerprint, the address and the reason.
func (s *Server) authorize(ctx ssh.Context, key ssh.PublicKey) bool {
	fp := gossh.FingerprintSHA256(key)
	if _, err := s.cfg.Keys.Check(key, fp, ctx.RemoteAddr(), time.Now()); err != nil {
		fmt.Fprintf(s.cfg.Log, "login refused: %s %s from %s: %v\n", key.Type(), fp, ctx.RemoteAddr(), err)
		return false
	}
	s.gate.keyOffered(ctx)
	return true
}

func sessionName(sess ssh.Session) string {
	return fmt.Sprintf("%s from %s", mqfmt.Sanitize(sess.User()), sess.RemoteAddr())
}

// identify is who the session is: its user name (sanitised: it comes from
// the client) and the authorized key it proved.
func (s *Server) identify(sess ssh.Session) (Identity, bool) {
	if sess.PublicKey() == nil {
		return Identity{}, false
	}
	k, ok := s.cfg.Keys.Lookup(sess.PublicKey())
	if !ok {
		return Identity{}, false
	}
	user := mqfmt.Sanitize(sess.User())
	if r := []rune(user); len(r) > 32 {
		user = string(r[:32])
	}
	return Identity{User: user, Fingerprint: gosshFingerprint(k), Role: k.Role}, true
}

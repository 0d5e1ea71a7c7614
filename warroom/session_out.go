package warroom

import (
	"sync"

	"github.com/charmbracelet/ssh"
)

// sessionOut is a session's terminal as the program draws on it and the
// App copies to it (y writes OSC 52 from a command while the renderer draws).
// Writes take turns: an SSH channel's writes must not overlap (x/crypto/ssh
// fills one packet buffer per channel), and a frame cut by a clipboard
// sequence would garble the screen.
type sessionOut struct {
	ssh.Session
	mu  *sync.Mutex
	why string
}

func newSessionOut(sess ssh.Session) sessionOut {
	o := sessionOut{Session: sess, mu: new(sync.Mutex)}
	switch pty, _, ok := sess.Pty(); {
	case !ok:
		o.why = "the SSH session has no terminal (ssh -t)"
	case pty.Term == "" || pty.Term == "dumb":
		o.why = "the terminal (TERM=" + pty.Term + ") takes no OSC 52"
	}
	return o
}

func (o sessionOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.Session.Write(p)
}

// NoClipboard says why y cannot copy through this session (ui.NoClipboard).
func (o sessionOut) NoClipboard() string { return o.why }

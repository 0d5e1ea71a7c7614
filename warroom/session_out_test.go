package warroom

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/ssh"
)

// byteSession is a session whose Write hands over one byte at a time, so
// writes that overlap interleave.
type byteSession struct {
	ssh.Session
	term string
	out  []byte
}

func (s *byteSession) Pty() (ssh.Pty, <-chan ssh.Window, bool) {
	return ssh.Pty{Term: s.term}, nil, true
}

func (s *byteSession) Write(p []byte) (int, error) {
	for _, b := range p {
		s.out = append(s.out, b)
		runtime.Gosched()
	}
	return len(p), nil
}

// TestSessionOutWritesTakeTurns: a frame and a clipboard sequence written at
// once reach the session whole, one after the other.
func TestSessionOutWritesTakeTurns(t *testing.T) {
	sess := &byteSession{term: "xterm-256color"}
	out := newSessionOut(sess)
	frame, osc := strings.Repeat("frame ", 200), "\x1b]52;c;QU1R\x07"
	var wg sync.WaitGroup
	for _, s := range []string{frame, osc} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = out.Write([]byte(s))
		}()
	}
	wg.Wait()
	if got := string(sess.out); got != frame+osc && got != osc+frame {
		t.Fatalf("the writes interleaved: %q", got)
	}
}

func TestSessionOutSaysWhenItCannotCopy(t *testing.T) {
	for term, want := range map[string]string{"xterm-256color": "", "dumb": "TERM=dumb", "": "TERM="} {
		why := newSessionOut(&byteSession{term: term}).NoClipboard()
		if (want == "") != (why == "") || !strings.Contains(why, want) {
			t.Errorf("TERM=%q: NoClipboard() = %q, want it to say %q", term, why, want)
		}
	}
}

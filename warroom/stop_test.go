//go:build unix

package warroom

import (
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"
)

// TestServerSIGINTEndsSessionsOnlyThroughStop: ctrl+c where serve runs
// reaches the whole process. The sessions' programs must not take it as
// their own (Bubble Tea's handler would end each program at once, before
// Stop marks it stopping, and its client would read only "Connection
// closed"): they run on until Stop, which tells each one why it ends.
func TestServerSIGINTEndsSessionsOnlyThroughStop(t *testing.T) {
	ts := startTestServer(t, nil)
	alice := ts.open("alice")
	bob := ts.open("bob")
	bob.waitFor("in the room (2)")
	// Noticed by this test, SIGINT does not end the test binary.
	got := make(chan os.Signal, 1)
	signal.Notify(got, os.Interrupt)
	defer signal.Stop(got)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-got // every handler has it now: a program that took it is ending
	alice.reset()
	alice.in.Write([]byte("?"))
	alice.waitFor("Keys on this screen")
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := ts.srv.Stop(stop); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*term{alice, bob} {
		s.waitFor("poisonwatch serve: server stopping")
		<-s.ended
	}
}

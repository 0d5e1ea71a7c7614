// Package waitfor is for tests that watch a terminal or a process's output:
// wait until it shows every one of some texts.
package waitfor

import (
	"strings"
	"testing"
	"time"
)

// Texts calls read until what it returns holds every one of texts, and
// fails the test with the last reading after timeout.
func Texts(t testing.TB, timeout time.Duration, read func() string, texts ...string) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := read()
		if all(got, texts) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("never showed %q:\n%s", texts, got[max(0, len(got)-4000):])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func all(s string, texts []string) bool {
	for _, t := range texts {
		if !strings.Contains(s, t) {
			return false
		}
	}
	return true
}

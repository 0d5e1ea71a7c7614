package warroom

import "time"

// clock is the time a session's timers run on: its keyboard's rate limit
// and its idle timeout. The server runs on the wall clock; its tests give
// it one they move themselves (Config.clock), so a limit or a timeout is
// checked without waiting for it.
type clock interface {
	Now() time.Time
	Sleep(time.Duration)
	// Tick is a ticker: its channel and the function that stops it.
	Tick(time.Duration) (<-chan time.Time, func())
	// AfterFunc calls f, on a goroutine of its own, once d has passed; it
	// returns the function that stops it.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// wallClock is the real time.
type wallClock struct{}

func (wallClock) Now() time.Time        { return time.Now() }
func (wallClock) Sleep(d time.Duration) { time.Sleep(d) }
func (wallClock) Tick(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}
func (wallClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

package ui

import (
	"strings"
	"testing"
)

// TestRoomScreens renders what a war-room viewer reads at 80x24 and
// 120x35: the help of a viewer (no T, no :rules FILE: a viewer can never
// use them) and a follower's screen, whose FOLLOWING banner is whole
// however narrow the terminal.
func TestRoomScreens(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 35}} {
		for _, tc := range []struct {
			name string
			keys []string
			want string
		}{
			{"viewer_help", []string{"?"}, "follow the driver"},
			{"follower", []string{"F"}, "FOLLOWING alice — esc stops"},
		} {
			t.Run(tc.name+"_"+itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
				a, _ := roomApp(t)
				a.Update(windowSize(size.w, size.h))
				press(a, tc.keys...)
				v := a.View()
				checkFrame(t, v, size.w, size.h)
				if !strings.Contains(v, tc.want) {
					t.Fatalf("%q is not on the screen (cut?):\n%s", tc.want, v)
				}
				golden(t, v)
			})
		}
	}
}

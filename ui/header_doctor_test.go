package ui

import (
	"strings"
	"testing"
)

// TestHeaderShowsDoctorProblems: what the doctor's checks found off on the
// queue manager is in its header, with where to find the fixes.
func TestHeaderShowsDoctorProblems(t *testing.T) {
	probs := []string{"dashboard: display and browse the DEADQ: app1 lacks +browse on SYSTEM.DEAD.LETTER.QUEUE", "actions: x"}
	a, _ := newTestApp(t, 200, 40, Options{Diagnosis: func(qm string) []string {
		if qm == "QM1" {
			return probs
		}
		return nil
	}})
	h := a.headerView()
	for _, want := range []string{"✘ dashboard: display and browse the DEADQ", "(+1 more): poisonwatch doctor"} {
		if !strings.Contains(h, want) {
			t.Errorf("header lacks %q: %q", want, h)
		}
	}
	probs = nil
	if h := a.headerView(); strings.Contains(h, "✘") {
		t.Errorf("all passed, yet %q", h)
	}
}

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestIntervalIsValidated: zero, negative and too-short intervals are refused
// with a clear error before anything starts.
func TestIntervalIsValidated(t *testing.T) {
	for _, arg := range []string{"0s", "-1s", "100ms"} {
		var out, errb bytes.Buffer
		code := runTUI(context.Background(), []string{"--interval", arg}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "must be at least 250ms") {
			t.Errorf("--interval %s: exit %d, %q", arg, code, errb.String())
		}
	}
	if err := checkInterval(minInterval); err != nil {
		t.Errorf("the minimum itself is refused: %v", err)
	}
}

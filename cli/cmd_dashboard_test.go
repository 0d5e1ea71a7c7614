package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestIntervalIsValidated: zero, negative and too-short intervals are refused
// with a clear error before anything starts.
func TestIntervalIsValidated(t *testing.T) {
	for _, arg := range []string{"0s", "-1s", "100ms"} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), []string{"--interval", arg}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "must be at least 250ms") {
			t.Errorf("--interval %s: exit %d, %q", arg, code, errb.String())
		}
	}
	if err := checkInterval(minInterval); err != nil {
		t.Errorf("the minimum itself is refused: %v", err)
	}
}

// TestDeadlineIsValidated: a deadline under a second is refused; 0 is the default.
func TestDeadlineIsValidated(t *testing.T) {
	for _, arg := range []string{"-1s", "500ms"} {
		var out, errb bytes.Buffer
		code := Run(context.Background(), []string{"--deadline", arg}, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "--deadline "+arg+": at least 1s") {
			t.Errorf("--deadline %s: exit %d, %q", arg, code, errb.String())
		}
	}
	for _, d := range []time.Duration{0, time.Second} {
		if err := checkDeadline(d); err != nil {
			t.Errorf("--deadline %s refused: %v", d, err)
		}
	}
}

// TestFleetScenarioAndQMgrsFile: --scenario fleet:NxM runs a generated fleet
// on the embedded backend, and --qmgrs FILE chooses which of its queue
// managers the dashboard watches, in the file's order.
func TestFleetScenarioAndQMgrsFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, file string
		want       []string
		err, note  string
	}{
		{"every queue manager", "", []string{"QM01", "QM02", "QM03", "QM04"}, "", ""},
		{"the file's, in its order", "[[qmgr]]\nname = \"QM03\"\n[[qmgr]]\nname = \"QM01\"\n", []string{"QM03", "QM01"}, "", ""},
		{"connection settings are said to be unused", "[[qmgr]]\nname = \"QM02\"\nchannel = \"APP.SVRCONN\"\nconn = \"mq2(1414)\"\n",
			[]string{"QM02"}, "", "connection settings of QM02 are not used"},
		{"a queue manager the fleet lacks", "[[qmgr]]\nname = \"QM09\"\n", nil, "QM09 not among the embedded queue managers (QM01 ... QM04)", ""},
		{"a malformed file", "[[qmgr]]\nname = \"QM01\"\npassword = \"x\"\n", nil, "--qmgrs", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tuiOpts{backend: "embedded", scenario: "fleet:4x20"}
			if tt.file != "" {
				o.qmgrs = write("qmgrs.toml", tt.file)
			}
			var stderr bytes.Buffer
			be, err := startEmbedded(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			defer be.stop()
			qs := be.qmgrs
			if o.qmgrs != "" {
				qs, err = watchListed(be.qmgrs, o.qmgrs, &stderr)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, q := range qs {
				got = append(got, q.name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("watched %v, want %v", got, tt.want)
			}
			if !strings.Contains(stderr.String(), tt.note) || (tt.note == "" && stderr.Len() > 0) {
				t.Errorf("stderr %q, want %q", stderr.String(), tt.note)
			}
		})
	}
}

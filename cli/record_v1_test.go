package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/record"
)

// v1Demo is 90 s of the built-in demo recorded by poisonwatch before the
// columnar format (version 1: inventories as lists of whole summaries).
const v1Demo = "../incident/record/testdata/v1-demo.pwrec"

// A recording of format version 1 still reads: its report is, line for
// line, the one the poisonwatch that wrote it made
// (testdata/v1-demo.report.md), and it plays back to its end.
func TestVersion1RecordingReadsAsBefore(t *testing.T) {
	rec, err := record.ReadAll(v1Demo)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.Version != 1 {
		t.Fatalf("testdata holds version %d, want 1", rec.Header.Version)
	}
	var out, errs bytes.Buffer
	if code := Run(context.Background(), []string{"report", "--format", "md", v1Demo}, &out, &errs); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errs.String())
	}
	want, err := os.ReadFile("testdata/v1-demo.report.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		t.Errorf("report of the version 1 recording differs:\n%s", firstDiff(got, string(want)))
	}
	app, _ := openPlayback(t, v1Demo, 120, 35)
	last := rec.Frames()[rec.Len()-1].Time()
	pressKeys(app, "}", "}") // a minute on, twice: past the last poll
	if head := playbackHead(app); !strings.Contains(head, "PLAYBACK "+last.Format("15:04:05")) {
		t.Errorf("playback header %q, want it at %s", head, last.Format(time.TimeOnly))
	}
}

// firstDiff is the first line where got and want part.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n got %s\nwant %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

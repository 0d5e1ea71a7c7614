package report

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/incident/record"
)

// fuzzLimits are tight caps, so a crafted stream reaches them in a fuzzer's
// time; each is asserted to hold.
var fuzzLimits = record.Limits{MaxBytes: 4 << 20, MaxMemory: 64 << 20, MaxFrameBytes: 1 << 20, MaxFrames: 2000,
	MaxQMgrs: 8, MaxQueues: 64, MaxSummaries: 4096}

// FuzzRecording feeds crafted recordings (the decompressed stream: the
// target gzips it, so mutations reach the frames rather than break the
// checksum) to the reader, a playback through every frame and both
// reports. Nothing panics; the caps hold and what reading allocates stays
// within them; no control character reaches a playback's flash or the
// Markdown, and the HTML holds no script.
func FuzzRecording(f *testing.F) {
	f.Fuzz(func(t *testing.T, stream []byte) {
		var gz bytes.Buffer
		w := gzip.NewWriter(&gz)
		w.Write(stream)
		w.Close()
		path := filepath.Join(t.TempDir(), "f.pwrec")
		if err := os.WriteFile(path, gz.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rec, err := record.OpenLimited(path, fuzzLimits)
		if err != nil {
			return
		}
		rec.Wait()
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 4*uint64(fuzzLimits.MaxMemory)+uint64(fuzzLimits.MaxBytes) {
			t.Fatalf("reading allocated %d MB", n>>20)
		}
		if rec.Len() > fuzzLimits.MaxFrames || len(rec.Header.QMgrs) > fuzzLimits.MaxQMgrs {
			t.Fatalf("%d frames, %d queue managers: over the caps", rec.Len(), len(rec.Header.QMgrs))
		}
		steps, _ := record.NewPlayer(rec).Seek(time.Unix(1<<40, 0))
		for _, st := range steps {
			terminalSafe(t, "a flash", st.Flash)
		}
		rep := Build(rec, time.Time{}, time.Time{})
		var md, html bytes.Buffer
		if err := rep.Markdown(&md); err != nil {
			t.Fatal(err)
		}
		terminalSafe(t, "the Markdown", md.String())
		if err := rep.HTML(&html); err != nil {
			t.Fatal(err)
		}
		// The page's own anchors to its rules section are markup of ours.
		own := regexp.MustCompile(`<a class="rule" href="#rule-[^"<>]*">([^<]*)</a>`).ReplaceAllString(html.String(), "$1")
		if m := rawHTML.FindString(own); m != "" {
			t.Fatalf("the HTML holds %q", m)
		}
	})
}

func terminalSafe(t *testing.T, what, s string) {
	t.Helper()
	for i, r := range s {
		if r == '\n' {
			continue
		}
		if r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD") || !unicode.IsGraphic(r) {
			t.Fatalf("%s holds %U at byte %d: %q", what, r, i, s[max(i-40, 0):min(i+40, len(s))])
		}
	}
}

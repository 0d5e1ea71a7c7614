package cli

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/words"
)

// runReportOf renders the report of the recording at path.
func runReportOf(t *testing.T, path string, args ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if code := Run(context.Background(), append([]string{"report", path}, args...), &out, &errs); code != 0 {
		t.Fatalf("report %v: exit %d: %s", args, code, errs.String())
	}
	return out.String()
}

// The report of a simulated incident says what happened: alerts with their
// start and clear, three charts, what is left on the DEADQ grouped as the
// triage groups it, the findings with their MQSC; self-contained (no
// script, nothing fetched).
//
// Three minutes of the demo (the same story on every run of its seed)
// already hold all of it: the LOOP alert still firing at the end, the 2085
// dead letters for INVOICE.IN on QM2, SHIPPING.IN's finding and its fix,
// and rows after its second minute for --to to cut. Ten minutes told the
// same and took three times as long.
func TestReportOfASimulatedRecording(t *testing.T) {
	path := simRecord(t, 3*time.Minute)
	html := runReportOf(t, path, "--format", "html")
	for _, want := range []string{
		"Incident report: QM1, QM2, QM3",
		"Alerts: started, acknowledged, cleared",
		"LOOP: head message rolled back", "still firing",
		"Depth of each DEADQ", "DEADQ arrivals by reason", "Depth of the backout queues", "Backout queue fill",
		"MQRC_UNKNOWN_OBJECT_NAME (2085)", "INVOICE.IN (QM2)",
		"ALTER QLOCAL(SHIPPING.IN) BOTHRESH(3) BOQNAME(SHIPPING.BO)",
		"@media print", "@media (max-width: 700px)",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if n := strings.Count(html, "<svg"); n != 4 {
		t.Errorf("%d charts, want 4", n)
	}
	if regexp.MustCompile(`(?i)<script|src="http|href="http|@import`).MatchString(html) {
		t.Error("the report is not self-contained: it has a script or fetches something")
	}
	md := runReportOf(t, path, "--format", "md")
	for _, want := range []string{"# Incident report", "## Alerts", "| Started |", "## Dead letters still on the DEADQ", "```"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown report lacks %q", want)
		}
	}
	// --from/--to narrow the timeline: nothing started after --to.
	rec := runReportOf(t, path, "--format", "md", "--to", firstClock(t, md, 2))
	if strings.Count(rec, "\n| ") >= strings.Count(md, "\n| ") {
		t.Error("--to did not narrow the report")
	}
}

// firstClock is the recording's start plus m minutes, as HH:MM:SS, read
// from a Markdown report's subtitle.
func firstClock(t *testing.T, md string, m int) string {
	t.Helper()
	at := regexp.MustCompile(`, (\d\d:\d\d:\d\d) to`).FindStringSubmatch(md)
	if at == nil {
		t.Fatal("no start time in the report")
	}
	start, _ := time.Parse("15:04:05", at[1])
	return start.Add(time.Duration(m) * time.Minute).Format("15:04:05")
}

// TestReportScreenshot looks at the report the way a reader does: headless
// Chromium renders it to a PNG, at a laptop's width and a phone's, and its
// charts on their own (the page with every other part hidden: the alerts
// of ten minutes fill a screen before them). With
// POISONWATCH_SCREENSHOTS=DIR it keeps them there (screenshots/report.png,
// report-charts.png, report-phone.png).
func TestReportScreenshot(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no headless Chromium (Debian: apt-get install -y chromium): the report's look is not checked")
	}
	dir := t.TempDir()
	html := runReportOf(t, simRecord(t, 10*time.Minute))
	page, charts := filepath.Join(dir, "incident.html"), filepath.Join(dir, "charts.html")
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	onlyCharts := strings.Replace(html, "</head>", "<style>body > :not(#queues) { display: none }</style></head>", 1)
	if err := os.WriteFile(charts, []byte(onlyCharts), 0o644); err != nil {
		t.Fatal(err)
	}
	// A war room's session with acts: the timeline opens its report.
	acted, _, _ := actsSession(t)
	timeline := filepath.Join(dir, "timeline.html")
	if err := os.WriteFile(timeline, []byte(runReportOf(t, acted)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, shot := range []struct {
		name, page string
		w, h       int
	}{{"report.png", page, 1200, 2600}, {"report-charts.png", charts, 1200, 2450}, {"report-phone.png", page, 420, 2600},
		{"report-timeline.png", timeline, 1200, 1100}} {
		out := filepath.Join(dir, shot.name)
		cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
			"--user-data-dir="+filepath.Join(dir, "profile-"+shot.name),
			"--window-size="+strconv.Itoa(shot.w)+","+strconv.Itoa(shot.h), "--screenshot="+out, "file://"+shot.page)
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
		b, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("chromium: %v\n%s", err, b)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", shot.name, err)
		}
		if b := img.Bounds(); b.Dx() != shot.w || b.Dy() != shot.h {
			t.Errorf("%s is %dx%d, want %dx%d", shot.name, b.Dx(), b.Dy(), shot.w, shot.h)
		}
		if keep := os.Getenv("POISONWATCH_SCREENSHOTS"); keep != "" {
			data, _ := os.ReadFile(out)
			if err := os.WriteFile(filepath.Join(keep, shot.name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestReportOutNeverOverwrites: --out creates a new file; an existing file
// or a link (even one leading nowhere) is refused and left as it was.
func TestReportOutNeverOverwrites(t *testing.T) {
	path := simRecord(t, time.Minute)
	dir := t.TempDir()
	existing := filepath.Join(dir, "incident.html")
	if err := os.WriteFile(existing, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "link.html")
	if err := os.Symlink(filepath.Join(dir, "elsewhere.html"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{existing, dangling} {
		var stdout, stderr bytes.Buffer
		if code := Run(context.Background(), []string{"report", path, "--out", out}, &stdout, &stderr); code != 1 ||
			!strings.Contains(stderr.String(), "nothing is overwritten") {
			t.Errorf("--out %s: exit %d, %q", out, code, stderr.String())
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("the existing file was changed: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere.html")); !os.IsNotExist(err) {
		t.Errorf("the link's target was created: %v", err)
	}
	fresh := filepath.Join(dir, "new.html")
	var stdout, stderr bytes.Buffer
	if code := Run(context.Background(), []string{"report", path, "--out", fresh}, &stdout, &stderr); code != 0 {
		t.Fatalf("--out a new file: exit %d: %s", code, stderr.String())
	}
}

// report --out says what it wrote: the file, its format and size, and
// each section with what it holds; to standard output it writes the
// report and nothing else.
func TestReportSaysWhatItWrote(t *testing.T) {
	path := simRecord(t, time.Minute)
	dir := t.TempDir()
	for _, tc := range []struct{ name, kind string }{{"incident.html", "HTML"}, {"incident.md", "Markdown"}} {
		out := filepath.Join(dir, tc.name)
		said := runReportOf(t, path, "--out", out)
		fi, err := os.Stat(out)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(said, "\n"), "\n")
		if want := "wrote " + out + ": " + tc.kind + ", " + words.Count(int(fi.Size()), "byte"); lines[0] != want {
			t.Errorf("first line %q, want %q", lines[0], want)
		}
		var titles []string
		for _, l := range lines[1:] {
			title, holds, ok := strings.Cut(strings.TrimPrefix(l, "  "), ": ")
			if !ok || !strings.HasPrefix(l, "  ") || holds == "" {
				t.Errorf("section line %q: want \"  Title: what it holds\"", l)
			}
			titles = append(titles, title)
		}
		if want := []string{"Timeline", "Alerts", "The queues over the incident", "Operator actions", "Dead letters still on the DEADQ at",
			"Configuration findings and their MQSC fixes", "What the rules cited say"}; len(titles) != len(want) {
			t.Errorf("sections %q, want %q", titles, want)
		} else {
			for i := range want {
				if !strings.HasPrefix(titles[i], want[i]) {
					t.Errorf("section %d is %q, want %q", i, titles[i], want[i])
				}
			}
		}
	}
	if html := runReportOf(t, path); !strings.HasPrefix(html, "<!doctype html>") || !strings.HasSuffix(html, "</html>\n") {
		t.Errorf("to standard output: not the page alone: %.80q … %.80q", html, html[max(len(html)-80, 0):])
	}
}

// A time for --from or --to, whatever is typed, is read or refused: never
// a panic, and a time read is a real one.
func FuzzReportTime(f *testing.F) {
	first := time.Date(2026, 12, 1, 21, 20, 0, 0, time.UTC)
	last := first.Add(30 * time.Minute)
	for _, s := range []string{"", "21:35", "21:35:10", "2026-12-01T21:35:00Z", "25:00", "21:", "-1:00", "21:35:60", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := reportTime(s, first, last)
		if err == nil && s != "" && got.IsZero() {
			t.Errorf("%q read as the zero time", s)
		}
	})
}

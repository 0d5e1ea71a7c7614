package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/incident/report"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/ui"
)

func reportCommand() *command {
	o := &reportOpts{}
	return &command{name: "report", synopsis: "write a post-mortem of a recording: alert timeline, charts, actions, what is left, fixes (HTML or Markdown)",
		flags: o.register,
		usage: usageText("Usage: poisonwatch report FILE [--from T] [--to T] [--out incident.html] [--format html|md]",
			"\nWrites a self-contained post-mortem of a recording (--record, sim --record): the alerts with",
			"when they started, who acknowledged them and when they cleared; charts of the DEADQ and backout",
			"queues, a panel per queue manager; every operator action and how it ended; who was in the war",
			"room; the dead letters left at the end, grouped as in the triage; the configuration findings",
			"with their MQSC fixes; the text of every rule cited. With --out it then prints the file it",
			"wrote, its size and each section."),
		exits: []exitStatus{{0, "written"}, {1, "the recording cannot be read (or is over a cap on what reading it may take) or the report written"}, exitUsage},
		run: func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			return runReport(ctx, o, fs, stdout, stderr)
		}}
}

// reportOpts are report's flags.
type reportOpts struct{ from, to, out, format string }

func (o *reportOpts) register(fs *flag.FlagSet) {
	fs.StringVar(&o.from, "from", "", "start of the report: HH:MM[:SS] within the recording, or RFC 3339 (default its start)")
	fs.StringVar(&o.to, "to", "", "end of the report (default the recording's end)")
	fs.StringVar(&o.out, "out", "", "file to write (default standard output)")
	fs.StringVar(&o.format, "format", "", "html or md (default from --out's extension, else html)")
}

func runReport(ctx context.Context, o *reportOpts, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	// The file may come first: report FILE --out x.html.
	var file string
	if fs.NArg() > 0 {
		file = fs.Arg(0)
		if code, ok := parseFlags(fs, fs.Args()[1:]); !ok {
			return code
		}
	}
	if file == "" || fs.NArg() != 0 {
		fs.Usage()
		return 2
	}
	fail := func(code int, err error) int { fmt.Fprintf(stderr, "poisonwatch report: %v\n", err); return code }
	if o.format == "" {
		o.format = "html"
		if ext := strings.ToLower(filepath.Ext(o.out)); ext == ".md" || ext == ".markdown" {
			o.format = "md"
		}
	}
	if o.format != "html" && o.format != "md" {
		return fail(2, fmt.Errorf("--format %q: html or md", o.format))
	}
	rec, err := record.ReadAll(file)
	if err != nil && (rec == nil || errors.Is(err, safeload.ErrTooLarge)) {
		// Over a cap, the file is not what poisonwatch writes: no report
		// of part of it passes for the whole.
		return fail(1, err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch report: %v (reporting on what was read)\n", err)
	}
	first, last := report.Span(rec)
	var f, t time.Time
	if f, err = reportTime(o.from, first, last); err != nil {
		return fail(2, fmt.Errorf("--from: %w", err))
	}
	if t, err = reportTime(o.to, first, last); err != nil {
		return fail(2, fmt.Errorf("--to: %w", err))
	}
	rep := report.Build(rec, f, t)
	n, err := writeReport(rep, o.out, o.format, stdout)
	if err != nil {
		return fail(1, err)
	}
	if o.out != "" {
		sayWritten(stdout, rep, o.out, o.format, n)
	}
	return 0
}

// sayWritten tells what a file holds once it is written: a report that
// goes to a file otherwise leaves the terminal silent, and whoever pastes
// it wants to know it has the sections they expect.
func sayWritten(w io.Writer, rep *report.Report, path, format string, n int64) {
	kind := "HTML"
	if format == "md" {
		kind = "Markdown"
	}
	fmt.Fprintf(w, "wrote %s: %s, %s\n", mqfmt.Sanitize(path), kind, words.Count(int(n), "byte"))
	for _, s := range rep.Outline() {
		fmt.Fprintf(w, "  %s\n", s)
	}
}

// writeReport writes rep as format to out (standard output when ""). A
// file is created new, as export's and rules generate's are: an existing
// file or a link is never written through.
func writeReport(rep *report.Report, out, format string, stdout io.Writer) (n int64, err error) {
	w := stdout
	if out != "" {
		of, err := safeload.CreateNew(out, 0o644)
		if err != nil {
			return 0, fmt.Errorf("--out: %w: nothing is overwritten; name a new file", err)
		}
		defer func() {
			if cerr := of.Close(); err == nil {
				err = cerr
			}
		}()
		w = of
	}
	cw := &countingWriter{w: w}
	bw := bufio.NewWriter(cw)
	if format == "md" {
		err = rep.Markdown(bw)
	} else {
		err = rep.HTML(bw)
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return cw.n, err
}

// countingWriter counts what reaches the file.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// reportTime reads HH:MM[:SS] within the recording, or RFC 3339; "" is zero.
func reportTime(s string, first, last time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return ui.JumpTime(s, first, last)
}

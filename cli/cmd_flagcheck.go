package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode"

	"github.com/poisonwatch/poisonwatch/actions/ops"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Bounds of the action flags that the engine would otherwise check only
// after the queue manager is open, or not at all.
const (
	minRate = 0.01      // messages per second: below, the first message would wait hours
	maxRate = 1_000_000 // far above what one queue manager takes
	maxName = 48        // IBM MQ queue and queue manager names
)

// checkActionFlags refuses, before anything runs, flag values that are out
// of range or not names IBM MQ could have, so they exit 2 as usage errors;
// then it lists what the --mqsc scripts ask for that the embedded queue
// manager does not model, as the README promises.
func checkActionFlags(a *actionFlags, stderr io.Writer) error {
	var errs []error
	add := func(bad bool, format string, args ...any) {
		if bad {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	add(a.batch < 1 || a.batch > ops.MaxBatch, "--batch %d: want 1 to %d messages per unit of work", a.batch, ops.MaxBatch)
	add(a.workers < 1 || a.workers > ops.MaxWorkers, "--workers %d: want 1 to %d", a.workers, ops.MaxWorkers)
	add(math.IsNaN(a.rate) || math.IsInf(a.rate, 0) || a.rate < 0 || (a.rate > 0 && a.rate < minRate) || a.rate > maxRate,
		"--rate %g: want 0 (no limit) or %g to %d messages per second", a.rate, minRate, maxRate)
	add(a.limit < 0, "--limit %d: want 0 (up to %d) or more", a.limit, ops.MaxSelection)
	add(a.minBackout < 0, "--min-backout %d: want 0 or more", a.minBackout)
	if err := checkBackend(a.backend.kind); err != nil {
		errs = append(errs, err)
	}
	add(a.backend.simFor < 0, "--sim-duration %s: want a positive duration", a.backend.simFor)
	for _, f := range []struct{ flag, v string }{{"--queue", a.queueName}, {"--to", a.to}, {"--to-qmgr", a.toQMgr},
		{"--load-queue", a.backend.loadQueue}, {"--qmgr", a.backend.qmgr}} {
		if f.v != "" {
			errs = append(errs, checkFlagName(f.flag, f.v, false))
		}
	}
	if a.destQ != "" {
		errs = append(errs, checkFlagName("--dest", a.destQ, true))
	}
	add(strings.IndexFunc(a.format+a.appl, func(r rune) bool { return !unicode.IsGraphic(r) }) >= 0, "--format and --appl: control characters cannot match")
	if err := errors.Join(errs...); err != nil {
		return err
	}
	printMQSCNotes(stderr, "poisonwatch "+string(a.req.Op), a.backend.mqsc.paths())
	return nil
}

// checkFlagName checks an MQ object name given on the command line; a
// pattern may also hold the wildcards * and ?.
func checkFlagName(flag, v string, pattern bool) error {
	if len(v) > maxName {
		return fmt.Errorf("%s \"%s…\": longer than %d characters", flag, mqfmt.Sanitize(v[:maxName]), maxName)
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("./_%", c) >= 0 ||
			pattern && (c == '*' || c == '?') {
			continue
		}
		want := "A-Z a-z 0-9 . / _ %"
		if pattern {
			want += ", and the wildcards * and ?"
		}
		return fmt.Errorf("%s \"%s\": character %d is not allowed in an IBM MQ name (%s)", flag, mqfmt.Sanitize(v), i+1, want)
	}
	return nil
}

// printMQSCNotes lists the not-modelled commands and attributes of each
// readable MQSC file; a file that cannot be read or parsed is left to the
// run, which reports it.
func printMQSCNotes(w io.Writer, prefix string, files []string) {
	for _, path := range files {
		data, err := readFile(path, maxMQSCFile)
		if err != nil {
			continue
		}
		notes, err := embedded.MQSCNotes(bytes.NewReader(data))
		if err != nil {
			continue
		}
		for _, n := range notes {
			fmt.Fprintf(w, "%s: --mqsc %s: %s\n", prefix, mqfmt.Sanitize(path), n)
		}
	}
}

// safeErr is an error's text made safe for a terminal: errors can quote
// queue names and values read from files.
func safeErr(err error) string { return mqfmt.Sanitize(err.Error()) }

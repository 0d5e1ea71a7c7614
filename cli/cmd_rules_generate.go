package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/dlqrules"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
	"github.com/poisonwatch/poisonwatch/internal/words"
)

// rulesGenerate is rules generate: a runmqdlq table written from the
// DEADQ's groups, to stdout or to a new file (--out).
func rulesGenerate(ctx context.Context, src dlqrules.Source, f *rulesFlags, stdout, stderr io.Writer) int {
	if f.out == "" {
		return generateRules(ctx, src, f, stdout, stderr, nil)
	}
	// A new file only, as export and discard --file do: an existing file or
	// a link (even one leading nowhere) is never written through.
	file, err := safeload.CreateNew(f.out, 0o600)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules generate: --out: %v: nothing is overwritten; name a new file\n", err)
		return ExitFailed
	}
	var wrote string
	code := generateRules(ctx, src, f, file, stderr, func(line string) { wrote = line })
	if err := file.Close(); err != nil && code == ExitDone {
		fmt.Fprintf(stderr, "poisonwatch rules generate: %v\n", err)
		code = ExitFailed
	}
	if code != ExitDone {
		os.Remove(f.out) // this run's own file, never someone else's
		return code
	}
	fmt.Fprintln(stdout, wrote)
	return code
}

// generateRules writes the table to w; done, when not nil, is given the
// sentence that says what was written (for --out, where the table itself is
// not the output).
func generateRules(ctx context.Context, src dlqrules.Source, f *rulesFlags, w io.Writer, stderr io.Writer, done func(string)) int {
	qmi, err := src.Conn.QMgr(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules generate: %v\n", err)
		return ExitFailed
	}
	queue := f.queue
	if queue == "" {
		queue = qmi.DeadQ
	}
	groups, err := dlqrules.QueueGroups(ctx, src.Conn, queue)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules generate: %v\n", err)
		return ExitFailed
	}
	err = dlqrules.Generate(w, groups, dlqrules.GenerateOptions{QMgr: qmi.Name, Queue: queue, Now: time.Now()})
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch rules generate: %v\n", err)
		return ExitFailed
	}
	if done != nil {
		done(generatedLine(f.out, groups, queue, qmi.Name))
	}
	return ExitDone
}

// generatedLine says what `rules generate --out` wrote, where the table
// itself would have been the output.
func generatedLine(path string, groups []dlqrules.Group, queue, qmgr string) string {
	n := 0
	for _, g := range groups {
		n += g.Count
	}
	return fmt.Sprintf("wrote %s: %s, one per group of the %s on %s of %s (ACTION(IGNORE) until you choose)",
		mqfmt.Sanitize(path), words.CountPlain(len(groups), "rule"), words.CountPlain(n, "message"), mqfmt.Sanitize(queue), mqfmt.Sanitize(qmgr))
}

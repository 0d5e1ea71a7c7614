package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

func auditCommand() *command {
	return &command{name: "audit", synopsis: "check an audit log: batches a crash may have undone (audit check FILE)",
		usage: usageText("Usage: poisonwatch audit check FILE",
			"\nLists the batches of requeue, move, discard, replay and import runs whose audit",
			"lines say \"pending\" with no outcome after them: the process ended around their",
			"MQCMIT. IBM MQ backs out a unit of work whose connection ends before the commit",
			"completes, so such a batch was most likely not done; check its messages on the",
			"source and the target."),
		exits: []exitStatus{{0, "no batch is pending"}, {1, "the log cannot be read"}, exitUsage, {exitPending, "some batches are pending: check their messages"}},
		run:   runAudit}
}

// exitPending is audit check's exit code when a batch ended pending.
const exitPending = 3

func runAudit(_ context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	if fs.NArg() != 2 || fs.Arg(0) != "check" {
		fs.Usage()
		return ExitUsage
	}
	f, err := safeload.Open(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch audit: %v\n", err)
		return 1
	}
	defer f.Close()
	batches, lines, err := ops.CheckAudit(f)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch audit: %s: %v\n", fs.Arg(1), err)
		return 1
	}
	printPending(stdout, fs.Arg(1), batches, lines)
	if len(batches) > 0 {
		return exitPending
	}
	return 0
}

func printPending(w io.Writer, path string, batches []ops.PendingBatch, lines int) {
	if len(batches) == 0 {
		fmt.Fprintf(w, "%s: %d lines, every batch has its outcome\n", path, lines)
		return
	}
	fmt.Fprintf(w, "%s: %d lines, %d batches ended pending (the process stopped around their MQCMIT; most likely backed out: check their messages)\n",
		path, lines, len(batches))
	for _, b := range batches {
		to := ""
		if len(b.To) > 0 {
			to = " to " + strings.Join(b.To, ", ")
		}
		if b.File != "" {
			to += " (file " + b.File + ")"
		}
		ids := b.MsgIds
		more := ""
		if len(ids) > 5 {
			ids, more = ids[:5], fmt.Sprintf(" and %d more", len(b.MsgIds)-5)
		}
		fmt.Fprintf(w, "  %s  %s %s of %d messages from %s%s on %s by %s\n    MsgIds %s%s\n",
			b.Time.UTC().Format(time.RFC3339), b.Action, "batch", b.Messages, b.From, to, b.QMgr, b.User,
			strings.Join(ids, ", "), more)
	}
}

package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

func auditCommand() *command {
	return &command{name: "audit", synopsis: "check an audit log: batches a crash may have undone, lines removed, inserted or changed (audit check FILE)",
		usage: usageText("Usage: poisonwatch audit check FILE",
			"\nLists the batches of requeue, move, discard, replay and import runs whose audit",
			"lines say \"pending\" with no outcome after them: the process ended around their",
			"MQCMIT. IBM MQ backs out a unit of work whose connection ends before the commit",
			"completes, so such a batch was most likely not done; check its messages on the",
			"source and the target.",
			"\nEach line carries a hash of the line before it: a line removed, inserted or changed",
			"anywhere but at the end breaks the chain, and the check says where. The hash has no",
			"key, so it cannot tell lines appended at the end, the last lines removed, or a chain",
			"rewritten by someone who can write the file (see docs/security.md). Lines written",
			"before lines were chained are counted, not checked."),
		exits: []exitStatus{{0, "no batch is pending and the chain holds"}, {1, "the log cannot be read"}, exitUsage,
			{exitPending, "some batches are pending: check their messages"},
			{exitChainBroken, "the chain is broken: lines were removed, inserted or changed"}},
		run: runAudit}
}

// audit check's exit codes beyond 0, 1 and 2. A broken chain wins over
// pending batches: what the log says of them may not be what was written.
const (
	exitPending     = 3
	exitChainBroken = 4
)

func runAudit(_ context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
	if fs.NArg() != 2 || fs.Arg(0) != "check" {
		fs.Usage()
		return ExitUsage
	}
	// The path and every field of the log are printed sanitised: a log is
	// a file like any other, and may hold anything.
	path := mqfmt.Sanitize(fs.Arg(1))
	f, err := safeload.Open(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch audit: %s\n", mqfmt.Sanitize(err.Error()))
		return 1
	}
	defer f.Close()
	rep, err := ops.CheckAuditLog(f)
	if err != nil {
		fmt.Fprintf(stderr, "poisonwatch audit: %s: %s\n", path, mqfmt.Sanitize(err.Error()))
		return 1
	}
	printPending(stdout, path, rep.Pending, rep.Lines)
	printChain(stdout, rep)
	switch {
	case rep.Broken > 0:
		return exitChainBroken
	case len(rep.Pending) > 0:
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
	s := mqfmt.Sanitize
	for _, b := range batches {
		to := ""
		if len(b.To) > 0 {
			to = " to " + s(strings.Join(b.To, ", "))
		}
		if b.File != "" {
			to += " (file " + s(b.File) + ")"
		}
		ids := b.MsgIds
		more := ""
		if len(ids) > 5 {
			ids, more = ids[:5], fmt.Sprintf(" and %d more", len(b.MsgIds)-5)
		}
		fmt.Fprintf(w, "  %s  %s %s of %d messages from %s%s on %s by %s\n    MsgIds %s%s\n",
			b.Time.UTC().Format(time.RFC3339), s(string(b.Action)), "batch", b.Messages, s(b.From), to, s(b.QMgr), s(b.User),
			s(strings.Join(ids, ", ")), more)
	}
}

// printChain says what the chain shows: where it breaks, or how far it
// holds.
func printChain(w io.Writer, rep ops.AuditReport) {
	chained := rep.Lines - rep.Unchained
	switch {
	case rep.Broken > 0:
		fmt.Fprintf(w, "chain BROKEN in %d places (lines were removed, inserted or changed):\n", rep.Broken)
		for _, b := range rep.Breaks {
			fmt.Fprintf(w, "  %s\n", mqfmt.Sanitize(b.Why))
		}
		if n := rep.Broken - len(rep.Breaks); n > 0 {
			fmt.Fprintf(w, "  and %d more\n", n)
		}
	case chained == 0 && rep.Lines > 0:
		fmt.Fprintf(w, "chain: none, the log was written before lines were chained: not checked\n")
	case rep.Unchained > 0:
		fmt.Fprintf(w, "chain: lines %d-%d follow each other; the %d before them were written before lines were chained: not checked\n",
			rep.Unchained+1, rep.Lines, rep.Unchained)
	case rep.Lines > 0:
		fmt.Fprintf(w, "chain: lines 1-%d follow each other (lines appended at the end, or the last removed, would not show)\n", rep.Lines)
	}
}

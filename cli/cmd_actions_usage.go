package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// actionSynopsis is each action command's usage line.
var actionSynopsis = map[ops.Op]string{
	ops.OpRequeue: "poisonwatch requeue --queue Q (--all | --msgid HEX | FILTERS) [--to Q [--to-qmgr QM] [--create-like Q [--maxdepth N]]] [--putaut def|ctx] [--verify D] [flags]",
	ops.OpMove:    "poisonwatch move --queue Q (--all | --msgid HEX | FILTERS) --to Q [--to-qmgr QM | --create-like Q [--maxdepth N]] [--verify D] [flags]",
	ops.OpDiscard: "poisonwatch discard --queue Q (--all | --msgid HEX | FILTERS) [--file ARCHIVE | --archive-dir DIR] [flags]",
	ops.OpReplay:  "poisonwatch replay --queue Q (--all | --msgid HEX | FILTERS) [--to Q [--to-qmgr QM]] [--keep-msgid] [--no-reports] [--verify D] [flags]",
	ops.OpExport:  "poisonwatch export --queue Q (--all | --msgid HEX | FILTERS) [--file FILE] [flags]",
	ops.OpImport:  "poisonwatch import --file FILE --to Q [--to-qmgr QM] [--all | --msgid HEX | FILTERS] [flags]",
}

// opOnlyFlags are the flags that apply to some actions only; every other
// flag applies to all of them.
var opOnlyFlags = map[string][]ops.Op{
	"to":         {ops.OpRequeue, ops.OpMove, ops.OpReplay, ops.OpImport},
	"to-qmgr":    {ops.OpRequeue, ops.OpMove, ops.OpReplay, ops.OpImport},
	"context":    {ops.OpRequeue, ops.OpMove, ops.OpReplay, ops.OpImport},
	"keep-msgid": {ops.OpReplay},
	"no-reports": {ops.OpReplay},
	"putaut":     {ops.OpRequeue, ops.OpReplay, ops.OpMove},
	"verify":     {ops.OpRequeue, ops.OpMove, ops.OpReplay},

	"allow-system-target": {ops.OpRequeue, ops.OpMove, ops.OpReplay, ops.OpImport},
	"file":                {ops.OpDiscard, ops.OpExport, ops.OpImport},
	"archive-dir":         {ops.OpDiscard},
	"batch":               {ops.OpRequeue, ops.OpMove, ops.OpDiscard, ops.OpReplay, ops.OpImport},
	"workers":             {ops.OpRequeue, ops.OpMove, ops.OpDiscard},
	"create-like":         {ops.OpRequeue, ops.OpMove},
	"maxdepth":            {ops.OpRequeue, ops.OpMove},
}

// flagApplies reports whether the flag name means something to op.
func flagApplies(op ops.Op, name string) bool {
	ops, ok := opOnlyFlags[name]
	if !ok {
		return true
	}
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

// actionUsage is op's --help: its synopsis and its own flags only.
func actionUsage(op ops.Op, fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "Usage: %s\n", actionSynopsis[op])
	printFlags(w, fs, func(name string) bool { return flagApplies(op, name) })
}

// defaultNote is " (default V)" as the flag package writes it: a number
// or a duration bare (100, 5s), a word quoted ("pass"), nothing for a zero
// value.
func defaultNote(def string) string {
	switch def {
	case "", "0", "0s", "false":
		return ""
	}
	if _, err := strconv.ParseFloat(def, 64); err == nil {
		return " (default " + def + ")"
	}
	if _, err := time.ParseDuration(def); err == nil {
		return " (default " + def + ")"
	}
	return fmt.Sprintf(" (default %q)", def)
}

// checkOwnFlags refuses a flag that op does not use: accepting it silently
// would let the operator believe it did something.
func checkOwnFlags(op ops.Op, fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && !flagApplies(op, f.Name) {
			err = fmt.Errorf("--%s does not apply to %s (see poisonwatch %s --help)", f.Name, op, op)
		}
	})
	return err
}

// errNoQMgr refuses a command that changes messages or queues without a
// queue manager named: the built-in demo, which the commands that only look
// default to, would take the change and vanish with the process, and the
// operator who forgot --backend ibmmq (or --qmgr) must not read "requeued
// 40" about a queue manager that is not theirs (docs/actions.md).
var errNoQMgr = errors.New("no queue manager to act on: name one (--scenario builtin for the demo, --scenario, --mqsc or --load " +
	"for an embedded one that lives only as long as the command, or --backend ibmmq)")

// checkActionTarget refuses, as a usage error, a command that has no queue
// manager to act on, and output paths whose directory is missing: nothing
// is created silently where the operator did not expect it.
func checkActionTarget(a *actionFlags) error {
	b := &a.backend
	if !b.named() {
		return errNoQMgr
	}
	op := a.req.Op
	if a.file != "" && (op == ops.OpExport || op == ops.OpDiscard) {
		if err := dirExists("--file", filepath.Dir(a.file)); err != nil {
			return err
		}
	}
	if a.archiveDir != "" {
		return dirExists("--archive-dir", a.archiveDir)
	}
	return nil
}

func dirExists(flagName, dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: directory %s does not exist; create it first (mkdir -m 700 %s)", flagName, dir, dir)
	case err != nil:
		return fmt.Errorf("%s: %w", flagName, err)
	case !fi.IsDir():
		return fmt.Errorf("%s: %s is not a directory", flagName, dir)
	}
	return nil
}

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
)

// actionSynopsis is each action command's usage line.
var actionSynopsis = map[actions.Op]string{
	actions.OpRequeue: "poisonwatch requeue --queue Q (--all | --msgid HEX | FILTERS) [--to Q [--to-qmgr QM] [--create-like Q [--maxdepth N]]] [--putaut def|ctx] [--verify D] [flags]",
	actions.OpMove:    "poisonwatch move --queue Q (--all | --msgid HEX | FILTERS) --to Q [--to-qmgr QM | --create-like Q [--maxdepth N]] [--verify D] [flags]",
	actions.OpDiscard: "poisonwatch discard --queue Q (--all | --msgid HEX | FILTERS) [--file ARCHIVE | --archive-dir DIR] [flags]",
	actions.OpReplay:  "poisonwatch replay --queue Q (--all | --msgid HEX | FILTERS) [--to Q [--to-qmgr QM]] [--keep-msgid] [--no-reports] [--verify D] [flags]",
	actions.OpExport:  "poisonwatch export --queue Q (--all | --msgid HEX | FILTERS) [--file FILE] [flags]",
	actions.OpImport:  "poisonwatch import --file FILE --to Q [--to-qmgr QM] [--all | --msgid HEX | FILTERS] [flags]",
}

// opOnlyFlags are the flags that apply to some actions only; every other
// flag applies to all of them.
var opOnlyFlags = map[string][]actions.Op{
	"to":         {actions.OpRequeue, actions.OpMove, actions.OpReplay, actions.OpImport},
	"to-qmgr":    {actions.OpRequeue, actions.OpMove, actions.OpReplay, actions.OpImport},
	"context":    {actions.OpRequeue, actions.OpMove, actions.OpReplay, actions.OpImport},
	"keep-msgid": {actions.OpReplay},
	"no-reports": {actions.OpReplay},
	"putaut":     {actions.OpRequeue, actions.OpReplay, actions.OpMove},
	"verify":     {actions.OpRequeue, actions.OpMove, actions.OpReplay},

	"allow-system-target": {actions.OpRequeue, actions.OpMove, actions.OpReplay, actions.OpImport},
	"file":                {actions.OpDiscard, actions.OpExport, actions.OpImport},
	"archive-dir":         {actions.OpDiscard},
	"batch":               {actions.OpRequeue, actions.OpMove, actions.OpDiscard, actions.OpReplay, actions.OpImport},
	"workers":             {actions.OpRequeue, actions.OpMove, actions.OpDiscard},
	"create-like":         {actions.OpRequeue, actions.OpMove},
	"maxdepth":            {actions.OpRequeue, actions.OpMove},
}

// flagApplies reports whether the flag name means something to op.
func flagApplies(op actions.Op, name string) bool {
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
func actionUsage(op actions.Op, fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: %s\n\nflags:\n", actionSynopsis[op])
	fs.VisitAll(func(f *flag.Flag) {
		if !flagApplies(op, f.Name) {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		line += defaultNote(f.DefValue)
		fmt.Fprintln(w, line)
	})
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
func checkOwnFlags(op actions.Op, fs *flag.FlagSet) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && !flagApplies(op, f.Name) {
			err = fmt.Errorf("--%s does not apply to %s (see poisonwatch %s --help)", f.Name, op, op)
		}
	})
	return err
}

// checkActionTarget refuses, as a usage error, a command that has no queue
// manager to act on, and output paths whose directory is missing: nothing
// is created silently where the operator did not expect it.
func checkActionTarget(a *actionFlags) error {
	b := &a.backend
	if b.kind == "embedded" && len(b.mqsc) == 0 && len(b.load) == 0 && b.scenario == "" {
		return errors.New("no queue manager to act on: the embedded queue manager needs --mqsc, --load or --scenario " +
			"(it lives only as long as the command), or use --backend ibmmq")
	}
	op := a.req.Op
	if a.file != "" && (op == actions.OpExport || op == actions.OpDiscard) {
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

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one subcommand declared as data: the name and synopsis the
// usage lists, the flags it declares, and what it does once they are
// parsed. The flag set, its
// output, --help and wrong flags are handled in one place (exec), so no
// command sets them up itself, and each command's options live in its own
// values, never in globals (the IBM MQ connection flags included).
type command struct {
	name     string
	synopsis string
	// flags declares the command's flags; nil: it takes none.
	flags func(fs *flag.FlagSet)
	// usage replaces the flag package's usage text (--help, a wrong flag).
	usage func(fs *flag.FlagSet, w io.Writer)
	// run runs the command on its parsed flags; fs.Args() are the
	// arguments the flags left.
	run func(ctx context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int
	// route, when set, is called with the arguments instead of parsing
	// them: a command with subcommands picks one and execs it.
	route func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	// subs are what route runs (rules' preview, run, ...; replay's own
	// action): their names and flags are the command's for completion
	// and the man page.
	subs []*command
	// exits are the exit codes --help ends with and the man page lists.
	exits []exitStatus
	// only, when set, says which of the flag set's flags the command
	// takes (the action commands share one set): help, completion and the
	// man page list those.
	only func(flag string) bool
}

// exitStatus is one exit status of a command and what it means.
type exitStatus struct {
	code  int
	means string
}

// Exit codes most commands share.
var (
	exitUsage   = exitStatus{ExitUsage, "usage: the command line is wrong"}
	exitsServer = []exitStatus{{0, "stopped (interrupted)"}, {1, "could not start, or failed"}, exitUsage}
	// exitsDashboard are the dashboard's and a recording's replay.
	exitsDashboard = []exitStatus{{0, "quit"}, {1, "could not start, or failed"}, exitUsage}
	exitsAction    = []exitStatus{{ExitDone, "every selected message was acted on (a dry run: would be), or none matched"},
		{ExitPartial, "partly: some were skipped, failed, are in doubt, were not reached, or came back"},
		{ExitUsage, "usage: the command line is wrong, or names no queue manager (nothing was touched)"},
		{ExitFailed, "nothing was acted on: an error, a refusal, or every message skipped or failed"}}
)

// exec parses args into the command's flags and runs it.
func (c *command) exec(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if c.route != nil {
		return c.route(ctx, args, stdout, stderr)
	}
	fs := c.flagSet(stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	return c.run(ctx, fs, stdout, stderr)
}

// flagSet is the command's flags, unparsed, writing errors and usage to
// stderr.
func (c *command) flagSet(stderr io.Writer) *flag.FlagSet {
	name := "poisonwatch"
	if c.name != "" { // the dashboard has none
		name += " " + c.name
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	if c.flags != nil {
		c.flags(fs)
	}
	fs.Usage = func() { c.help(fs, stderr) }
	return fs
}

// help is the command's --help: its usage (or a usage line and its
// synopsis), its flags, then its exit codes, in one style for every command.
func (c *command) help(fs *flag.FlagSet, w io.Writer) {
	if c.usage != nil {
		c.usage(fs, w)
	} else {
		fmt.Fprintf(w, "Usage: %s [flags]\n\n%s.\n", fs.Name(), upperFirst(c.synopsis))
		printFlags(w, fs, nil)
	}
	writeExits(w, c.exits)
}

// writeExits ends a help text with the exit codes.
func writeExits(w io.Writer, exits []exitStatus) { io.WriteString(w, exitsText(exits)) }

func exitsText(exits []exitStatus) string {
	if len(exits) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nExit codes:\n")
	for _, e := range exits {
		fmt.Fprintf(&b, "  %d  %s\n", e.code, e.means)
	}
	return b.String()
}

// printFlags lists the flags (those keep accepts; nil: all) under
// "Flags:", each as --name TYPE, its help indented under it with its
// default.
func printFlags(w io.Writer, fs *flag.FlagSet, keep func(name string) bool) {
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if keep != nil && !keep(f.Name) {
			return
		}
		if first {
			fmt.Fprintln(w, "\nFlags:")
			first = false
		}
		name, usage := flag.UnquoteUsage(f)
		line := "  --" + f.Name
		if name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		fmt.Fprintln(w, line+defaultNote(f.DefValue))
	})
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parseFlags parses a command's flags: ok is false when the command is done,
// with code ExitDone after --help (the flag package printed the usage) or
// ExitUsage after a wrong flag (it printed why).
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return ExitDone, false
	case err != nil:
		return ExitUsage, false
	}
	return 0, true
}

// usageText is a usage of fixed lines followed by the flags.
func usageText(lines ...string) func(fs *flag.FlagSet, w io.Writer) {
	return func(fs *flag.FlagSet, w io.Writer) {
		for _, l := range lines {
			io.WriteString(w, l+"\n")
		}
		printFlags(w, fs, nil)
	}
}

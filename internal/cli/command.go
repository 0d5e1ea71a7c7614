package cli

import (
	"context"
	"errors"
	"flag"
	"io"
)

// command is one subcommand, declared once as lazygit's pkg/app declares
// its commands: the name and synopsis the usage lists, the flags it
// declares, and what it does once they are parsed. The flag set, its
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
}

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
	if c.usage != nil {
		fs.Usage = func() { c.usage(fs, stderr) }
	}
	return fs
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
		fs.PrintDefaults()
	}
}

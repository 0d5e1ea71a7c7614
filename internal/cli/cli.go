// Package cli is poisonwatch's command line: the dashboard's flags and every
// subcommand (decode, sim, requeue, serve, ...), wired to the backends and
// the ui. The program's main package only calls Run.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Version is what --version prints; main sets it from its own version,
// which the build stamps with -ldflags "-X main.version=...".
var Version = "dev"

// command is one subcommand. run returns the process exit code.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	cmds := []command{
		{"decode", "decode a raw MQ message or a dmpmqmsg file: MQMD, header chain, body", runDecode},
		{"sim", "run a scenario headless on embedded queue managers and print the final state", runSim},
	}
	cmds = append(cmds, actionCommands()...)
	cmds = append(withRecordingReplay(cmds), editCommand(), rulesCommand(), fixCommand(), serveCommand(), exporterCommand(), doctorCommand(), auditCommand(), reportCommand())
	return append(cmds, command{"version", "print the version", runVersion})
}

// Run runs the command line args (without the program's name) and returns
// the process's exit code.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		return runVersion(ctx, nil, stdout, stderr)
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		return runTUI(ctx, args, stdout, stderr)
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		fmt.Fprintln(stdout, "\nDashboard flags:")
		fs := flag.NewFlagSet("poisonwatch", flag.ContinueOnError)
		fs.SetOutput(stdout)
		tuiFlags(fs, &tuiOpts{})
		registerMQFlags(fs)
		fs.PrintDefaults()
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "poisonwatch: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "poisonwatch: IBM MQ poison-message monitoring")
	fmt.Fprintln(w, "\nUsage:\n  poisonwatch [flags]            the live dashboard (the built-in demo unless told otherwise)\n  poisonwatch <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'poisonwatch <command> --help' for a command's flags.")
}

func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "poisonwatch %s\n", Version)
	return 0
}

// parseFlags parses a command's flags: ok is false when the command is done,
// with code exitDone after --help (the flag package printed the usage) or
// exitUsage after a wrong flag (it printed why).
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

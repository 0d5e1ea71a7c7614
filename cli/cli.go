// Package cli is poisonwatch's command line: the dashboard's flags and every
// subcommand (decode, sim, requeue, serve, ...), wired to the backends and
// the ui. The program's main package only calls Run.
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Version is what --version prints; main sets it from its own version,
// which the build stamps with -ldflags "-X main.version=...".
var Version = "dev"

// commands are poisonwatch's subcommands, in the order the usage lists them.
func commands() []*command {
	cmds := []*command{decodeCommand(), simCommand()}
	cmds = append(cmds, actionCommands()...)
	cmds = append(withPlaybackHint(cmds), editCommand(), rulesCommand(), fixCommand(), serveCommand(), exporterCommand(), doctorCommand(), auditCommand(), reportCommand(), playbackCommand())
	return append(cmds, &command{name: "version", synopsis: "print the version", run: runVersion, exits: []exitStatus{{0, "printed"}, exitUsage}},
		completionCommand(), manCommand())
}

// Run runs the command line args (without the program's name) and returns
// the process's exit code.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		return runVersion(ctx, nil, stdout, stderr)
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		return dashboardCommand().exec(ctx, args, stdout, stderr)
	}
	switch args[0] {
	case "-h", "--help", "help":
		usage(stdout)
		d := dashboardCommand()
		fmt.Fprint(stdout, "\nWithout a command, poisonwatch [flags] is "+d.synopsis+".\n")
		printFlags(stdout, d.flagSet(stdout), nil)
		writeExits(stdout, d.exits)
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.exec(ctx, args[1:], stdout, stderr)
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
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.synopsis)
	}
	fmt.Fprintln(w, "\nRun 'poisonwatch <command> --help' for a command's flags.")
}

func runVersion(_ context.Context, _ *flag.FlagSet, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "poisonwatch %s\n", Version)
	return 0
}

package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// manCommand prints poisonwatch(1) in roff, made from the command table:
// every command with its usage, flags and exit codes, as --help shows them.
func manCommand() *command {
	return &command{name: "man", synopsis: "print the manual page, poisonwatch(1), in roff (make man writes dist/poisonwatch.1)",
		usage: usageText("Usage: poisonwatch man > poisonwatch.1",
			"",
			"Prints the manual page made from the same table as --help: the dashboard's flags, then",
			"every command's usage, flags and exit codes. Read it with man -l poisonwatch.1."),
		exits: []exitStatus{{0, "printed"}, exitUsage},
		run: func(_ context.Context, fs *flag.FlagSet, stdout, _ io.Writer) int {
			if fs.NArg() != 0 {
				fs.Usage()
				return ExitUsage
			}
			writeMan(stdout)
			return 0
		}}
}

// writeMan writes the manual page.
func writeMan(w io.Writer) {
	fmt.Fprintf(w, ".TH POISONWATCH 1 \"\" \"poisonwatch %s\" \"User Commands\"\n", roffEscape(Version))
	fmt.Fprintln(w, ".SH NAME\npoisonwatch \\- IBM MQ poison-message monitoring: a terminal dashboard and its commands")
	fmt.Fprintln(w, ".SH SYNOPSIS\n.B poisonwatch\n[\\fIflags\\fR]\n.br\n.B poisonwatch\n\\fIcommand\\fR [\\fIflags\\fR]")
	fmt.Fprintln(w, ".SH DESCRIPTION")
	fmt.Fprintln(w, "Without a command, poisonwatch starts the live dashboard: which queues are in trouble,")
	fmt.Fprintln(w, "which messages keep being rolled back, what piled up on the backout queues and the")
	fmt.Fprintln(w, "dead-letter queue and why. With no backend flags it runs the built-in demo on an")
	fmt.Fprintln(w, "embedded queue manager. Every flag is written --name or -name.")
	d := dashboardCommand()
	fmt.Fprintln(w, ".SH OPTIONS")
	manFlags(w, d)
	fmt.Fprintln(w, ".SH COMMANDS")
	for _, c := range commands() {
		manCommandSection(w, c)
	}
	fmt.Fprintln(w, ".SH EXIT STATUS")
	fmt.Fprintln(w, "The dashboard's; each command's are listed with it above.")
	manExits(w, d.exits)
	fmt.Fprintln(w, ".SH ENVIRONMENT")
	fmt.Fprintln(w, ".TP\n.B MQ_QMGR, MQ_USER, MQ_PASSWORD, ...\nIBM MQ's connection settings (a build with IBM MQ support); the flags override them.")
	fmt.Fprintln(w, ".TP\n.B NO_COLOR\nwhen set, the dashboard draws without colour.")
	fmt.Fprintln(w, ".SH SEE ALSO")
	fmt.Fprintln(w, "runmqsc(1), runmqdlq(1), dmpmqmsg(1), setmqaut(1); the README and docs/ of the source.")
}

// manCommandSection is one command: its usage text, flags and exit codes
// (a routed command's subcommands each get theirs).
func manCommandSection(w io.Writer, c *command) {
	fmt.Fprintf(w, ".SS %s\n%s\n", roffEscape(c.name), roffEscape(upperFirst(c.synopsis)+"."))
	manUsage(w, c)
	manFlags(w, c)
	for _, s := range c.subs {
		switch {
		case s.name == c.name: // another meaning of the command (replay)
			manUsage(w, s)
			manFlags(w, s)
		case s.flags != nil:
			fmt.Fprintf(w, ".PP\n.B poisonwatch %s\n\\(em %s.\n", roffEscape(s.name), roffEscape(s.synopsis))
			manFlags(w, s)
		}
	}
	if len(c.exits) > 0 {
		fmt.Fprintln(w, ".PP\nExit status:")
		manExits(w, c.exits)
	}
}

// manUsage is the text of a command's --help before its flags, as is.
func manUsage(w io.Writer, c *command) {
	if c.usage == nil {
		return
	}
	var b bytes.Buffer
	c.usage(flag.NewFlagSet(c.name, flag.ContinueOnError), &b) // no flags: the text only
	fmt.Fprintln(w, ".PP\n.nf")
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		fmt.Fprintln(w, roffEscape(l))
	}
	fmt.Fprintln(w, ".fi")
}

// manFlags lists a command's flags as tagged paragraphs.
func manFlags(w io.Writer, c *command) {
	if c.flags == nil {
		return
	}
	c.flagSet(io.Discard).VisitAll(func(f *flag.Flag) {
		if c.only != nil && !c.only(f.Name) {
			return
		}
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, ".TP\n.B \\-\\-%s", roffEscape(f.Name))
		if name != "" {
			fmt.Fprintf(w, " \\fI%s\\fR", roffEscape(name))
		}
		fmt.Fprintf(w, "\n%s\n", roffEscape(usage+defaultNote(f.DefValue)))
	})
}

func manExits(w io.Writer, exits []exitStatus) {
	for _, e := range exits {
		fmt.Fprintf(w, ".TP\n.B %d\n%s\n", e.code, roffEscape(e.means))
	}
}

// roffEscape makes s plain text in roff: backslashes escaped, hyphens as
// \- where a flag or name is spelt, characters beyond ASCII as \[uXXXX]
// (whatever the reader's troff takes as input), and a line starting with
// . or ' kept from being a request.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	var b strings.Builder
	for _, r := range s {
		if r > unicode.MaxASCII {
			fmt.Fprintf(&b, `\[u%04X]`, r)
		} else {
			b.WriteRune(r)
		}
	}
	s = b.String()
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			l = `\&` + l
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// completionCommand prints a shell's completion script, made from the
// command table (commands()): a command, subcommand or flag added there
// completes with nothing else to change.
func completionCommand() *command {
	return &command{name: "completion", synopsis: "print the shell completion script for bash, zsh or fish",
		usage: usageText("Usage: poisonwatch completion bash|zsh|fish",
			"",
			"Prints a script completing poisonwatch's commands, subcommands and flags, made from",
			"the same table the usage lists. Load it for this shell, or install it:",
			"  bash: source <(poisonwatch completion bash)     (or into /etc/bash_completion.d/poisonwatch)",
			"  zsh:  poisonwatch completion zsh > \"${fpath[1]}/_poisonwatch\"",
			"  fish: poisonwatch completion fish > ~/.config/fish/completions/poisonwatch.fish"),
		exits: []exitStatus{{0, "printed"}, {ExitUsage, "usage: no shell, or one not supported"}},
		subs:  []*command{{name: "bash"}, {name: "zsh"}, {name: "fish"}},
		run: func(_ context.Context, fs *flag.FlagSet, stdout, stderr io.Writer) int {
			write := map[string]func(io.Writer, []compEntry){"bash": writeBash, "zsh": writeZsh, "fish": writeFish}[fs.Arg(0)]
			if fs.NArg() != 1 || write == nil {
				fs.Usage()
				return ExitUsage
			}
			write(stdout, completionTable())
			return 0
		}}
}

// compEntry is what completes after one command path: "" is the program
// itself (the dashboard's flags and the commands), "rules" its
// subcommands, "rules run" that subcommand's flags.
type compEntry struct {
	path  string
	about string
	subs  []string
	flags []compFlag
}

type compFlag struct{ name, about string }

// completionTable walks the command table: each command with its flags
// (a routed command: its subcommands' flags, or their names when they
// have names of their own, as rules has).
func completionTable() []compEntry {
	cmds := commands()
	top := compEntry{flags: commandFlags(dashboardCommand())}
	out := []compEntry{}
	for _, c := range cmds {
		top.subs = append(top.subs, c.name)
		e := compEntry{path: c.name, about: c.synopsis, flags: commandFlags(c)}
		for _, s := range c.subs {
			sub, ok := strings.CutPrefix(s.name, c.name+" ")
			switch {
			case s.name == c.name: // another meaning of the same command
				e.flags = mergeFlags(e.flags, commandFlags(s))
			case ok:
				e.subs = append(e.subs, sub)
				out = append(out, compEntry{path: s.name, about: s.synopsis, flags: commandFlags(s)})
			default:
				e.subs = append(e.subs, s.name)
			}
		}
		out = append(out, e)
	}
	return append([]compEntry{top}, out...)
}

// commandFlags are c's flags, as its flag set declares them.
func commandFlags(c *command) []compFlag {
	var out []compFlag
	if c.flags == nil {
		return nil
	}
	c.flagSet(io.Discard).VisitAll(func(f *flag.Flag) {
		if c.only != nil && !c.only(f.Name) {
			return
		}
		_, about := flag.UnquoteUsage(f)
		out = append(out, compFlag{f.Name, about})
	})
	return out
}

func mergeFlags(a, b []compFlag) []compFlag {
	for _, f := range b {
		if !slices.ContainsFunc(a, func(g compFlag) bool { return g.name == f.name }) {
			a = append(a, f)
		}
	}
	slices.SortFunc(a, func(x, y compFlag) int { return strings.Compare(x.name, y.name) })
	return a
}

// words are an entry's completions: its subcommands, then --flags.
func (e compEntry) words() string {
	w := slices.Clone(e.subs)
	for _, f := range e.flags {
		w = append(w, "--"+f.name)
	}
	return strings.Join(w, " ")
}

// writeBash writes a bash completion function: the command path is the
// words before the cursor that are not flags (at most two: rules run),
// and the path's entry gives the words; nothing matching falls back to
// file names (-o default), as FILE arguments want.
func writeBash(w io.Writer, table []compEntry) {
	fmt.Fprintln(w, "# poisonwatch completion for bash: source <(poisonwatch completion bash)")
	fmt.Fprintln(w, "_poisonwatch() {")
	fmt.Fprintln(w, `	local cur="${COMP_WORDS[COMP_CWORD]}" path="" i w`)
	fmt.Fprintln(w, `	for ((i = 1; i < COMP_CWORD; i++)); do`)
	fmt.Fprintln(w, `		w="${COMP_WORDS[i]}"`)
	fmt.Fprintln(w, `		case "$w" in -*) continue ;; esac`)
	fmt.Fprintln(w, `		case "${path:+$path }$w" in`)
	var paths []string
	for _, e := range table[1:] {
		paths = append(paths, shellQuote(e.path))
	}
	fmt.Fprintf(w, "\t\t%s) path=\"${path:+$path }$w\" ;;\n", strings.Join(paths, "|"))
	fmt.Fprintln(w, "\t\tesac")
	fmt.Fprintln(w, "\tdone")
	fmt.Fprintln(w, `	local words=""`)
	fmt.Fprintln(w, `	case "$path" in`)
	for _, e := range table {
		fmt.Fprintf(w, "\t%s) words=%s ;;\n", shellQuote(e.path), shellQuote(e.words()))
	}
	fmt.Fprintln(w, "\tesac")
	fmt.Fprintln(w, `	COMPREPLY=($(compgen -W "$words" -- "$cur"))`)
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, "complete -o default -F _poisonwatch poisonwatch")
}

// writeZsh writes a zsh completion function (#compdef) with the same
// table: commands and subcommands by position, flags for the path.
func writeZsh(w io.Writer, table []compEntry) {
	fmt.Fprintln(w, "#compdef poisonwatch")
	fmt.Fprintln(w, "# poisonwatch completion for zsh: poisonwatch completion zsh > \"${fpath[1]}/_poisonwatch\"")
	fmt.Fprintln(w, "_poisonwatch() {")
	fmt.Fprintln(w, `	local p="" i`)
	fmt.Fprintln(w, `	for ((i = 2; i < CURRENT; i++)); do`)
	fmt.Fprintln(w, `		[[ $words[i] == -* ]] && continue`)
	fmt.Fprintln(w, `		case "${p:+$p }$words[i]" in`)
	var paths []string
	for _, e := range table[1:] {
		paths = append(paths, shellQuote(e.path))
	}
	fmt.Fprintf(w, "\t\t%s) p=\"${p:+$p }$words[i]\" ;;\n", strings.Join(paths, "|"))
	fmt.Fprintln(w, "\t\tesac")
	fmt.Fprintln(w, "\tdone")
	fmt.Fprintln(w, `	case "$p" in`)
	for _, e := range table {
		fmt.Fprintf(w, "\t%s) compadd -- %s ;;\n", shellQuote(e.path), e.words())
	}
	fmt.Fprintln(w, "\tesac")
	fmt.Fprintln(w, "\t_files")
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, `if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _poisonwatch "$@"; else compdef _poisonwatch poisonwatch; fi`)
}

// writeFish writes fish completions: one line per command, subcommand
// and flag, with its help as the description.
func writeFish(w io.Writer, table []compEntry) {
	fmt.Fprintln(w, "# poisonwatch completion for fish: poisonwatch completion fish > ~/.config/fish/completions/poisonwatch.fish")
	fmt.Fprintln(w, "complete -c poisonwatch -f")
	byPath := map[string]compEntry{}
	for _, e := range table {
		byPath[e.path] = e
	}
	for _, e := range table {
		cond := "__fish_use_subcommand"
		if e.path != "" {
			parts := strings.Fields(e.path)
			cond = "__fish_seen_subcommand_from " + parts[len(parts)-1]
			if len(parts) == 1 && len(e.subs) > 0 {
				cond += "; and not __fish_seen_subcommand_from " + strings.Join(e.subs, " ")
			}
		}
		for _, s := range e.subs {
			about := byPath[strings.TrimSpace(e.path+" "+s)].about
			fmt.Fprintf(w, "complete -c poisonwatch -n %s -a %s -d %s\n", shellQuote(cond), shellQuote(s), shellQuote(firstClause(about)))
		}
		for _, f := range e.flags {
			fmt.Fprintf(w, "complete -c poisonwatch -n %s -l %s -d %s\n", shellQuote(cond), f.name, shellQuote(firstClause(f.about)))
		}
	}
}

// firstClause shortens a help text to what a completion menu shows.
func firstClause(s string) string {
	if i := strings.IndexAny(s, ":;("); i > 20 {
		s = s[:i]
	}
	if len(s) > 70 {
		s = s[:70] + "…"
	}
	return strings.TrimSpace(s)
}

// shellQuote quotes s for sh, bash, zsh and fish alike (” is the empty
// word).
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

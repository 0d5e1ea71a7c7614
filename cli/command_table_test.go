package cli

import (
	"bytes"
	"cmp"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// helpOf runs PATH --help and returns what it printed (stderr for the flag
// package's help, stdout for the routed commands' and the program's).
func helpOf(t *testing.T, path string) string {
	t.Helper()
	args := append(strings.Fields(path), "--help")
	var out, errb bytes.Buffer
	if code := Run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, code, out.String(), errb.String())
	}
	return out.String() + errb.String()
}

var exitLine = regexp.MustCompile(`^  [0-9]  \S`)

// TestEveryHelpEndsWithItsExitCodes: every command of the table, every
// subcommand with flags and the program itself answer --help in one
// style: a usage line, the flags as --name, and the exit codes last.
func TestEveryHelpEndsWithItsExitCodes(t *testing.T) {
	for _, e := range completionTable() {
		name := cmp.Or(e.path, "(the program)")
		t.Run(name, func(t *testing.T) {
			h := helpOf(t, e.path)
			if !strings.Contains(h, "Usage") {
				t.Errorf("no usage line:\n%s", h)
			}
			i := strings.LastIndex(h, "\nExit codes:\n")
			if i < 0 {
				t.Fatalf("no exit codes:\n%s", h)
			}
			for _, l := range strings.Split(strings.TrimRight(h[i+len("\nExit codes:\n"):], "\n"), "\n") {
				if !exitLine.MatchString(l) {
					t.Errorf("after the exit codes: %q\n%s", l, h)
				}
			}
			for _, l := range strings.Split(h, "\n") {
				if strings.HasPrefix(l, "  -") && !strings.HasPrefix(l, "  --") {
					t.Errorf("flag in the flag package's -name style: %q", l)
				}
			}
		})
	}
}

// TestBackendFlagsAreTheDashboards: every command that reaches a queue
// manager declares the dashboard's backend flags, with its help and
// defaults; the list below must stay inside what the table finds.
func TestBackendFlagsAreTheDashboards(t *testing.T) {
	dash := dashboardCommand().flagSet(nil)
	var found []string
	for _, c := range allCommands() {
		if c.flags == nil {
			continue
		}
		fs := c.flagSet(nil)
		if fs.Lookup("backend") == nil {
			continue
		}
		found = append(found, c.name)
		for _, name := range []string{"backend", "scenario", "mqsc", "qmgrs", "qmgr"} {
			f, d := fs.Lookup(name), dash.Lookup(name)
			switch {
			case f == nil:
				t.Errorf("%s has no --%s", c.name, name)
			case name != "qmgr" && (f.Usage != d.Usage || f.DefValue != d.DefValue):
				t.Errorf("%s --%s: %q (default %q), the dashboard's: %q (default %q)", c.name, name, f.Usage, f.DefValue, d.Usage, d.DefValue)
			}
		}
	}
	for _, want := range []string{"doctor", "fix", "requeue", "discard", "replay", "move", "export", "import", "edit",
		"rules preview", "rules run", "rules generate", "serve", "exporter"} {
		if !slices.Contains(found, want) {
			t.Errorf("%s does not take the backend flags (found: %v)", want, found)
		}
	}
}

// allCommands are the table's commands and their subcommands.
func allCommands() []*command {
	var out []*command
	for _, c := range commands() {
		out = append(out, c)
		out = append(out, c.subs...)
	}
	return out
}

// bashComplete runs the bash completion function for the words typed so
// far (the last one is completed) and returns the words it offers.
func bashComplete(t *testing.T, script string, words ...string) []string {
	t.Helper()
	var q []string
	for _, w := range append([]string{"poisonwatch"}, words...) {
		q = append(q, shellQuote(w))
	}
	prog := "source " + shellQuote(script) + "; COMP_WORDS=(" + strings.Join(q, " ") + "); COMP_CWORD=" +
		strconv.Itoa(len(words)) + "; _poisonwatch; printf '%s\\n' \"${COMPREPLY[@]}\""
	out, err := exec.Command("bash", "-c", prog).Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	return strings.Fields(string(out))
}

// TestBashCompletion runs bash's completion for what an operator types:
// commands by prefix, subcommands, and each command's own flags.
func TestBashCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	var b bytes.Buffer
	if code := Run(context.Background(), []string{"completion", "bash"}, &b, &b); code != 0 {
		t.Fatalf("exit %d: %s", code, b.String())
	}
	script := filepath.Join(t.TempDir(), "poisonwatch.bash")
	if err := os.WriteFile(script, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		words []string
		want  []string // exactly, in order; nil: see has
		has   []string
		lacks []string
	}{
		{"re_is_three_commands", []string{"re"}, []string{"requeue", "replay", "report"}, nil, nil},
		{"do_is_doctor", []string{"do"}, []string{"doctor"}, nil, nil},
		{"dashboard_flags", []string{"--sc"}, []string{"--scenario"}, nil, nil},
		{"rules_subcommands", []string{"rules", ""}, []string{"check", "preview", "run", "generate"}, nil, nil},
		{"rules_run_flags", []string{"rules", "run", "--dr"}, []string{"--dry-run"}, nil, nil},
		{"rules_preview_has_no_dry_run", []string{"rules", "preview", "--"}, nil, []string{"--scenario", "--qmgrs"}, []string{"--dry-run"}},
		{"flags_after_values", []string{"fix", "--qmgr", "QM1", "--li"}, []string{"--list"}, nil, nil},
		{"discard_takes_its_own_flags_only", []string{"discard", "--"}, nil, []string{"--archive-dir", "--mqsc"}, []string{"--keep-msgid", "--to"}},
		{"playback_of_a_recording", []string{"playback", "--th"}, []string{"--theme"}, nil, nil},
		{"replay_is_R10e_alone", []string{"replay", "--"}, nil, []string{"--keep-msgid"}, []string{"--theme"}},
		{"completion_shells", []string{"completion", ""}, []string{"bash", "zsh", "fish"}, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := bashComplete(t, script, tc.words...)
			if tc.want != nil && !slices.Equal(got, tc.want) {
				t.Errorf("%q completes to %q, want %q", tc.words, got, tc.want)
			}
			for _, w := range tc.has {
				if !slices.Contains(got, w) {
					t.Errorf("%q: %q lacks %s", tc.words, got, w)
				}
			}
			for _, w := range tc.lacks {
				if slices.Contains(got, w) {
					t.Errorf("%q: %q offers %s", tc.words, got, w)
				}
			}
		})
	}
	t.Run("every_command_of_the_table", func(t *testing.T) {
		got := bashComplete(t, script, "")
		for _, c := range commands() {
			if !slices.Contains(got, c.name) {
				t.Errorf("%s is not completed: %q", c.name, got)
			}
			for _, f := range commandFlags(c) {
				if flags := bashComplete(t, script, c.name, "--"+f.name); !slices.Contains(flags, "--"+f.name) {
					t.Errorf("%s --%s is not completed: %q", c.name, f.name, flags)
				}
			}
		}
	})
}

// TestCompletionAndManCoverTheTable: a command added to the table is in
// every shell's completion and in the man page with each of its flags and
// exit codes, by construction; this fails if that construction breaks.
func TestCompletionAndManCoverTheTable(t *testing.T) {
	outputs := map[string]string{}
	for _, args := range [][]string{{"completion", "bash"}, {"completion", "zsh"}, {"completion", "fish"}, {"man"}} {
		var out, errb bytes.Buffer
		if code := Run(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		outputs[strings.Join(args, " ")] = out.String()
	}
	for _, c := range commands() {
		for what, out := range outputs {
			name := c.name
			if what == "man" {
				name = ".SS " + roffEscape(c.name) + "\n"
			}
			if !strings.Contains(out, name) {
				t.Errorf("%s lacks the command %s", what, c.name)
			}
		}
		for _, f := range commandFlags(c) {
			if !strings.Contains(outputs["man"], `.B \-\-`+roffEscape(f.name)) || !strings.Contains(outputs["completion fish"], "-l "+f.name+" ") {
				t.Errorf("man or fish lacks %s --%s", c.name, f.name)
			}
		}
		for _, e := range c.exits {
			if !strings.Contains(outputs["man"], roffEscape(e.means)) {
				t.Errorf("man lacks %s's exit %d: %s", c.name, e.code, e.means)
			}
		}
	}
	for _, bad := range []string{"bash", "zsh", "fish", "man"} {
		if strings.Contains(outputs["completion "+bad], "\x1b") {
			t.Errorf("%s output holds an escape", bad)
		}
	}
}

// TestManPageReads: man (or groff) reads the page without a warning.
func TestManPageReads(t *testing.T) {
	var out bytes.Buffer
	if code := Run(context.Background(), []string{"man"}, &out, &out); code != 0 {
		t.Fatalf("exit %d: %s", code, out.String())
	}
	page := filepath.Join(t.TempDir(), "poisonwatch.1")
	if err := os.WriteFile(page, out.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var cmd *exec.Cmd
	switch {
	case lookPath("man"):
		cmd = exec.Command("man", "-l", "-P", "cat", page)
		cmd.Env = append(os.Environ(), "MANWIDTH=100", "MAN_KEEP_STDERR=1")
	case lookPath("groff"):
		cmd = exec.Command("groff", "-man", "-ww", "-z", "-Tutf8", page)
	default:
		t.Skip("neither man nor groff is installed")
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("%v: %v\n%s", cmd.Args, err, stderr.String())
	}
	if cmd.Args[0] == "man" {
		for _, want := range []string{"POISONWATCH(1)", "COMMANDS", "doctor", "--scenario", "EXIT STATUS"} {
			if !strings.Contains(stdout.String(), want) {
				t.Errorf("the page lacks %q", want)
			}
		}
	}
}

func lookPath(name string) bool { _, err := exec.LookPath(name); return err == nil }

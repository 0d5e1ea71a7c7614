package doctext

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// The anchors GitHub gives these headings (links in the README use them).
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"War-room over SSH":                                 "war-room-over-ssh",
		"A generated fleet: `--scenario fleet`":             "a-generated-fleet---scenario-fleet",
		"Authorities (Linux/UNIX, `setmqaut`)":              "authorities-linuxunix-setmqaut",
		"Rules tables (runmqdlq)":                           "rules-tables-runmqdlq",
		"Start here (a fresh machine with Go 1.26 and gcc)": "start-here-a-fresh-machine-with-go-126-and-gcc",
		"Repairing: apply a fix, stop a loop":               "repairing-apply-a-fix-stop-a-loop",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
}

func TestAnchorsNumberRepeats(t *testing.T) {
	got := Anchors("# T\n## What it costs\n```\n## not a heading\n```\n## What it costs\n")
	want := map[string]bool{"t": true, "what-it-costs": true, "what-it-costs-1": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Anchors = %v, want %v", got, want)
	}
}

// A section is found in the README or in a docs page, ends at the next
// heading of its level, and its stub in the README comes with it.
func TestSectionFollowsTheTextToDocs(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# P\n## Keys\nk\n## Actions\nsee docs\n## Dev\n")
	write("docs/actions.md", "# Actions\n\nback\n\n## Examples\n```\n# a comment\n```\nrun\n")
	write("docs/warroom.md", "# War room\n## Keys file and roles\nroles\n")
	got, err := Section(root, "Actions")
	if err != nil {
		t.Fatal(err)
	}
	if want := "## Actions\nsee docs\n# Actions\n\nback\n\n## Examples\n```\n# a comment\n```\nrun\n"; got != want {
		t.Errorf("Section(Actions) = %q, want %q", got, want)
	}
	keys, err := SectionExact(root, "Keys")
	if err != nil {
		t.Fatal(err)
	}
	if keys != "## Keys\nk" {
		t.Errorf("SectionExact(Keys) = %q", keys)
	}
}

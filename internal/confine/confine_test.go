package confine

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// outside is a directory beside the confining one, holding a secret.
func setup(t *testing.T) (*Dir, string) {
	t.Helper()
	base := t.TempDir()
	out := filepath.Join(base, "outside")
	if err := os.Mkdir(out, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "secret"), []byte("root:x:0:0"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := Open(filepath.Join(base, "room"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	must(t, os.WriteFile(filepath.Join(d.Path(), "ok.rules"), []byte("ACTION(IGNORE)\n"), 0o600))
	must(t, os.Symlink(filepath.Join(out, "secret"), filepath.Join(d.Path(), "link")))
	must(t, os.Symlink(out, filepath.Join(d.Path(), "linkdir")))
	must(t, os.Symlink(filepath.Join(out, "new"), filepath.Join(d.Path(), "dangling")))
	must(t, os.Symlink("ok.rules", filepath.Join(d.Path(), "inner")))
	return d, out
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Every way out of the directory a session could name is refused, for
// reading, creating and the engine's resolved paths alike.
func TestConfinedPathsRefuseEveryWayOut(t *testing.T) {
	d, out := setup(t)
	for _, p := range []string{"/etc/passwd", "../outside/secret", "link", "linkdir/secret", "linkdir/new", "dangling", "inner", "a/../../outside/secret", filepath.Join(out, "secret")} {
		if f, err := d.Open(p); err == nil {
			f.Close()
			t.Errorf("Open(%q) read a file", p)
		}
		if f, err := d.Create(p); err == nil {
			f.Close()
			t.Errorf("Create(%q) created a file", p)
		}
		if r, err := d.Resolve(p); err == nil {
			t.Errorf("Resolve(%q) = %q", p, r)
		}
	}
	if _, err := os.Lstat(filepath.Join(out, "new")); err == nil {
		t.Fatal("a dangling link's target was created outside")
	}
	if _, err := d.Open("/etc/passwd"); !errors.Is(err, ErrOutside) || !strings.Contains(err.Error(), d.Path()) {
		t.Fatalf("the refusal does not say where files are: %v", err)
	}
}

func TestConfinedPathsInside(t *testing.T) {
	d, _ := setup(t)
	for _, p := range []string{"ok.rules", "./ok.rules", filepath.Join(d.Path(), "ok.rules"), "~/ok.rules"} {
		f, err := d.Open(p)
		if err != nil {
			t.Fatalf("Open(%q): %v", p, err)
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if string(b) != "ACTION(IGNORE)\n" {
			t.Fatalf("Open(%q) read %q", p, b)
		}
	}
	w, err := d.Create("sub/dir/new.rules")
	must(t, err)
	must(t, w.Close())
	if fi, err := os.Stat(filepath.Join(d.Path(), "sub/dir/new.rules")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("created file: %v %v", fi, err)
	}
	if _, err := d.Create("ok.rules"); !errors.Is(err, os.ErrExist) {
		t.Fatalf("an existing file was opened for writing: %v", err)
	}
	r, err := d.Resolve("exports/QM1.dmp")
	if err != nil || r != filepath.Join(d.Path(), "exports/QM1.dmp") {
		t.Fatalf("Resolve = %q, %v", r, err)
	}
}

// A FIFO in the directory is refused at once, not waited on.
func TestConfinedOpenRefusesFIFO(t *testing.T) {
	d, _ := setup(t)
	must(t, syscall.Mkfifo(filepath.Join(d.Path(), "fifo"), 0o600))
	done := make(chan error, 1)
	go func() { _, err := d.Open("fifo"); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("Open(fifo) = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Open(fifo) blocked")
	}
}

func TestDeniedRefusesAll(t *testing.T) {
	n := Denied{Why: "no files"}
	if _, err := n.Open("x"); err == nil || err.Error() != "no files" {
		t.Fatal(err)
	}
	if _, err := n.Create("x"); err == nil {
		t.Fatal("created")
	}
	if _, err := n.Resolve("x"); err == nil {
		t.Fatal("resolved")
	}
}

// FuzzConfinedPath: whatever path a session names, Resolve refuses it or
// gives a path inside the directory, and Open and Create never reach a
// file outside it.
func FuzzConfinedPath(f *testing.F) {
	for _, s := range []string{"a", "../x", "/etc/passwd", "~/a/b", "a/../../b", "link/x", "./a//b/", "\x00", ".."} {
		f.Add(s)
	}
	d, err := Open(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	if err := os.Symlink("/", filepath.Join(d.Path(), "link")); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		r, err := d.Resolve(p)
		if err != nil {
			return
		}
		if rel, err := filepath.Rel(d.Path(), r); err != nil || !filepath.IsLocal(rel) {
			t.Fatalf("Resolve(%q) = %q, outside %s", p, r, d.Path())
		}
		if f, err := d.Open(p); err == nil {
			f.Close()
		}
	})
}

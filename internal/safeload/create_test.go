package safeload

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestCreateNewRefusesWhatIsThere(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{"existing_file": target, "directory": dir}
	if runtime.GOOS != "windows" {
		link := filepath.Join(dir, "link")
		dangling := filepath.Join(dir, "dangling")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
			t.Fatal(err)
		}
		paths["link"], paths["dangling_link"] = link, dangling
	}
	for name, p := range paths {
		t.Run(name, func(t *testing.T) {
			for _, create := range []func(string) (*os.File, error){
				func(p string) (*os.File, error) { return CreateNew(p, 0o644) },
				CreatePrivate,
			} {
				f, err := create(p)
				if err == nil {
					f.Close()
					t.Fatalf("created %s over what was there", p)
				}
				if !errors.Is(err, fs.ErrExist) {
					t.Errorf("err = %v, want one matching fs.ErrExist", err)
				}
			}
		})
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "keep" {
		t.Errorf("target = %q, %v: written through", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the dangling link's target was created: %v", err)
	}
}

func TestCreateNewPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	dir := t.TempDir()
	check := func(p string, want fs.FileMode) {
		t.Helper()
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != want&^umask(t) {
			t.Errorf("%s: mode %v, want %v", p, got, want&^umask(t))
		}
	}
	f, err := CreateNew(filepath.Join(dir, "report.html"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("x"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	check(filepath.Join(dir, "report.html"), 0o644)

	private := filepath.Join(dir, "state", "archive", "a.jsonl")
	f, err = CreatePrivate(private)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	check(private, 0o600)
	check(filepath.Dir(private), 0o700)
	check(filepath.Join(dir, "state"), 0o700)

	if _, err := CreateNew(filepath.Join(dir, "missing", "x"), 0o600); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("CreateNew made a directory: %v", err)
	}
}

// umask is the process's file creation mask, which the kernel applies to
// every mode asked for.
func umask(t *testing.T) fs.FileMode {
	p := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(p, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}

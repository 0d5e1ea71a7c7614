package cli

import (
	"bytes"
	"context"
	"testing"
)

// --version and the version command print what `make build` stamps into
// main.version.
func TestVersionFlag(t *testing.T) {
	defer func(v string) { Version = v }(Version)
	Version = "v1.2.3-4-gabcdef0-dirty"
	for _, args := range [][]string{{"--version"}, {"-version"}, {"version"}} {
		var out, errb bytes.Buffer
		if code := Run(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		if got, want := out.String(), "poisonwatch v1.2.3-4-gabcdef0-dirty\n"; got != want {
			t.Errorf("%v: got %q, want %q", args, got, want)
		}
	}
}

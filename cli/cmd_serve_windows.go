//go:build windows

package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
)

// serveCommand on Windows says why there is none: the war room's SSH
// sessions use a Unix pseudo-terminal (warroom/session.go). The dashboard
// and every other command work; serve runs on the MQ host (Linux, AIX via
// a Linux jump host) or any Unix-like machine.
func serveCommand() *command {
	return &command{name: "serve", synopsis: "the dashboard over SSH (not in Windows builds: it needs a Unix pseudo-terminal)",
		exits: []exitStatus{{1, "not available in this build"}, exitUsage},
		run: func(_ context.Context, _ *flag.FlagSet, _, stderr io.Writer) int {
			fmt.Fprintln(stderr, "poisonwatch serve: not available on Windows: the war room's sessions need a Unix pseudo-terminal; run serve on Linux or macOS")
			return 1
		}}
}

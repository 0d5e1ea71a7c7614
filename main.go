// Command poisonwatch is a terminal dashboard for live IBM MQ poison-message
// monitoring, plus the command-line tools behind it (decode, sim, requeue, ...).
// The commands live in cli.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/poisonwatch/poisonwatch/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	cli.Version = version
	code := cli.Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

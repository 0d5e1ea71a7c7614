package main

import (
	"context"
	"fmt"
	"io"
)

func runDecode(_ context.Context, _ []string, _, stderr io.Writer) int {
	fmt.Fprintln(stderr, "poisonwatch decode: not built yet")
	return 1
}

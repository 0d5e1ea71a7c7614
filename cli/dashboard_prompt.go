package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/charmbracelet/x/term"
)

// promptPassword reads a password without echo; never from argv, never logged.
func promptPassword(user string) (string, error) {
	if !term.IsTerminal(os.Stdin.Fd()) {
		return "", errors.New("MQ_PASSWORD is not set and standard input is not a terminal to ask for it")
	}
	fmt.Fprintf(os.Stderr, "Password for %s: ", user)
	b, err := term.ReadPassword(os.Stdin.Fd())
	fmt.Fprintln(os.Stderr)
	return string(b), err
}

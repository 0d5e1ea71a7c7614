// Package e2e holds the end-to-end tests and the repository's own checks:
// the program built and run as a user runs it (in tmux, over ssh, beside
// Prometheus and Alertmanager), the README's commands, the layers of the
// module and the codebase map. It has no code of its own.
package e2e

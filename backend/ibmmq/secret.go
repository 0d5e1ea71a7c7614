package ibmmq

import (
	"fmt"
	"io"
	"log/slog"
)

const redacted = "[redacted]"

// Secret holds a password. It never prints, marshals or logs its value, whatever
// the verb or handler, so a Settings value can be logged or shown in an error
// without leaking the credential.
type Secret struct{ v string }

// NewSecret wraps a password.
func NewSecret(v string) Secret { return Secret{v: v} }

// IsSet reports whether a password is held.
func (s Secret) IsSet() bool { return s.v != "" }

// value is the only way to read the password: unexported, so only the code
// that fills the MQCSP can reach it.
func (s Secret) value() string { return s.v }

// String returns "[redacted]" when a password is held and "" when none is.
func (s Secret) String() string {
	if s.v == "" {
		return ""
	}
	return redacted
}

// Format prints the same as String for every verb: fmt would otherwise print
// the unexported field through reflection for verbs such as %d or %x.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, s.String()) }

// GoString keeps %#v redacted too.
func (s Secret) GoString() string { return "ibmmq.Secret{" + s.String() + "}" }

// MarshalText keeps JSON, YAML and slog's text handler redacted.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// LogValue keeps slog redacted whatever the handler.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

package warroom

import (
	"errors"
	"fmt"
	"net"
	"path"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// keyOptions are the OpenSSH options of an authorized key that serve
// honours. Any other option (command=, no-pty, restrict, permitopen=...)
// is an error at start: a restriction the owner wrote and the server
// silently ignored would be worse than none.
type keyOptions struct {
	role    Role
	from    []string  // address patterns, OpenSSH from= syntax
	expires time.Time // zero: never
}

// parseKeyOptions reads a key's options and the role word of its comment.
func parseKeyOptions(comment string, opts []string) (keyOptions, error) {
	var ko keyOptions
	setRole := func(v string) error {
		r := Role(v)
		if r != Viewer && r != Operator {
			return fmt.Errorf("role=%s: the role is operator or viewer", mqfmt.Sanitize(v))
		}
		if ko.role != "" && ko.role != r {
			return fmt.Errorf("role=%s and role=%s: one key, one role", ko.role, r)
		}
		ko.role = r
		return nil
	}
	for _, w := range strings.Fields(comment) {
		if v, ok := strings.CutPrefix(w, "role="); ok {
			if err := setRole(v); err != nil {
				return ko, err
			}
		}
	}
	for _, o := range opts {
		name, val, _ := strings.Cut(o, "=")
		val = unquote(val)
		var err error
		switch strings.ToLower(name) {
		case "role":
			err = setRole(val)
		case "from":
			ko.from, err = parseFrom(val)
		case "expiry-time":
			ko.expires, err = parseExpiry(val)
		default:
			err = fmt.Errorf("option %q is not supported by poisonwatch serve (only from=, expiry-time= and role=): remove it or the key", mqfmt.Sanitize(name))
		}
		if err != nil {
			return ko, err
		}
	}
	if ko.role == "" {
		ko.role = Viewer
	}
	return ko, nil
}

func unquote(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return strings.ReplaceAll(v[1:len(v)-1], `\"`, `"`)
	}
	return v
}

// parseFrom checks from= patterns: addresses with * and ? wildcards or
// CIDR blocks, each optionally negated with !. Host names are refused:
// serve resolves no names, so such a pattern could never match.
func parseFrom(v string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(v, ",") {
		bare := strings.TrimPrefix(p, "!")
		if strings.Contains(bare, "/") {
			if _, _, err := net.ParseCIDR(bare); err != nil {
				return nil, fmt.Errorf("from=%q: %q is not a CIDR block", mqfmt.Sanitize(v), mqfmt.Sanitize(bare))
			}
		} else if bare == "" || strings.Trim(strings.ToLower(bare), "0123456789abcdef.:*?") != "" {
			return nil, fmt.Errorf("from=%q: %q is not an address pattern (serve matches addresses, never host names)", mqfmt.Sanitize(v), mqfmt.Sanitize(bare))
		}
		out = append(out, p)
	}
	return out, nil
}

// fromAllows is OpenSSH's rule: a negated pattern that matches refuses,
// else any matching pattern allows, else the address is refused.
func fromAllows(patterns []string, addr net.Addr) bool {
	if len(patterns) == 0 {
		return true
	}
	host := addr.String()
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	ip := net.ParseIP(host)
	allowed := false
	for _, p := range patterns {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(p, "!")
		var match bool
		if _, n, err := net.ParseCIDR(p); err == nil {
			match = ip != nil && n.Contains(ip)
		} else {
			match, _ = path.Match(p, host)
		}
		if match && neg {
			return false
		}
		allowed = allowed || match
	}
	return allowed
}

// parseExpiry reads expiry-time: YYYYMMDD[HHMM[SS]] in the server's local
// time, or UTC with a trailing Z, as OpenSSH does.
func parseExpiry(v string) (time.Time, error) {
	loc := time.Local
	if s, ok := strings.CutSuffix(v, "Z"); ok {
		v, loc = s, time.UTC
	}
	layouts := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}
	if l, ok := layouts[len(v)]; ok {
		if t, err := time.ParseInLocation(l, v, loc); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("expiry-time=%q: YYYYMMDD[HHMM[SS]][Z]", mqfmt.Sanitize(v))
}

// ErrKeyRefused is wrapped by every refused login's reason.
var ErrKeyRefused = errors.New("key refused")

// Check is whether key may log in from addr at now: the key's reason for
// refusal otherwise, for the server's log.
func (k Keys) Check(key interface{ Marshal() []byte }, fp string, addr net.Addr, now time.Time) (AuthorizedKey, error) {
	a, ok := k[fp]
	if !ok || string(a.Key.Marshal()) != string(key.Marshal()) {
		return AuthorizedKey{}, fmt.Errorf("%w: not in the authorized keys", ErrKeyRefused)
	}
	if !a.Expires.IsZero() && !now.Before(a.Expires) {
		return AuthorizedKey{}, fmt.Errorf("%w: expired %s (expiry-time, line %d)", ErrKeyRefused, a.Expires.Format(time.RFC3339), a.Line)
	}
	if !fromAllows(a.From, addr) {
		return AuthorizedKey{}, fmt.Errorf("%w: from=%s does not allow %s (line %d)", ErrKeyRefused, strings.Join(a.From, ","), addr, a.Line)
	}
	return a, nil
}

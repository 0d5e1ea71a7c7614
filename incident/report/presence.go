package report

import (
	"slices"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/record"
)

// Person is one person's time in the war room: a serve recording writes
// the whole room whenever anything in it changes (someone moves to
// another screen, takes the wheel), so its frames are read as who joined
// and who left.
type Person struct {
	User   string
	Roles  []string // as first seen, then each change: "viewer", "operator"
	Drove  bool     // took the wheel at some time
	Stints []Stint
}

// Stint is one stay in the room.
type Stint struct {
	Joined time.Time
	Left   time.Time // zero: still there at the report's end
}

// people diffs consecutive lists of the room, from the recording's start
// to the report's end, into one Person a user, in the order they first
// joined; a stay that ended before from is left out, and so is a person
// with none left.
func people(frames []record.Presence, from time.Time) []*Person {
	var out []*Person
	byUser := map[string]*Person{}
	for _, fr := range frames {
		here := map[string]bool{}
		for _, m := range fr.Members {
			p := byUser[m.User]
			if p == nil {
				p = &Person{User: m.User}
				byUser[m.User] = p
				out = append(out, p)
			}
			if m.Role != "" && !slices.Contains(p.Roles, m.Role) {
				p.Roles = append(p.Roles, m.Role)
			}
			p.Drove = p.Drove || m.Driving
			if !here[m.User] && !p.in() {
				p.Stints = append(p.Stints, Stint{Joined: fr.At})
			}
			here[m.User] = true // a second session of the same user is the same person
		}
		for _, p := range out {
			if p.in() && !here[p.User] {
				p.Stints[len(p.Stints)-1].Left = fr.At
			}
		}
	}
	kept := out[:0]
	for _, p := range out {
		p.Stints = slices.DeleteFunc(p.Stints, func(s Stint) bool { return !s.Left.IsZero() && s.Left.Before(from) })
		if len(p.Stints) > 0 {
			kept = append(kept, p)
		}
	}
	return kept
}

// in reports whether the person is in the room now.
func (p *Person) in() bool { return len(p.Stints) > 0 && p.Stints[len(p.Stints)-1].Left.IsZero() }

// Role is the person's roles as a phrase: "viewer, then operator".
func (p *Person) Role() string {
	s := strings.Join(p.Roles, ", then ")
	if p.Drove {
		s += " (drove)"
	}
	return s
}

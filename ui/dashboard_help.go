package ui

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// helpNotes are what the dashboard's ? says besides its keys: the columns
// whose names are jargon, what the alerts pane does (its keys are listed
// only while it has the focus), and how to reach the other queue managers.
func (d *dashboard) helpNotes(c common) []string {
	k := c.Keys()
	notes := []string{
		"BOTHR: BOTHRESH (0: poison handling off, R1c) · RISK: messages at the head already rolled back · " +
			"STUCK: rolled back BOTHRESH times or more and still there, poison nobody moved (R8c)",
		"Alerts (" + k.Tab.Help().Key + " moves to them): " + k.Enter.Help().Key + " opens one · " + k.Ack.Help().Key + " acknowledges · " +
			k.Snooze.Help().Key + " snoozes · " + k.Fix.Help().Key + " applies its MQSC fix · " + k.Inhibit.Help().Key + " turns GET off",
	}
	if others := otherQMgrs(c); len(others) > 0 {
		notes = append(notes, "Other queue managers ("+mqfmt.Sanitize(strings.Join(others, ", "))+"): "+
			k.Fleet.Help().Key+" lists them, :qm NAME opens one")
	}
	return notes
}

// otherQMgrs are the watched queue managers other than the one on view.
func otherQMgrs(c common) []string {
	var out []string
	for _, name := range c.State().Order {
		if name != c.QMgrName() {
			out = append(out, name)
		}
	}
	return out
}

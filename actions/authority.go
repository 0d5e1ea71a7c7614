package actions

import (
	"fmt"
	"strings"
)

// Requirement is one authority a consumer's user needs for poison handling to
// work (R7). Without it the inquiry or the move fails with MQRC_NOT_AUTHORIZED.
type Requirement struct {
	Rule   string
	Object string
	// Authorities are MQSC AUTHREC names: INQ, GET, PUT, PASSALL.
	Authorities []string
	Why         string
}

// MQSC returns the command that grants the requirement to principal.
func (r Requirement) MQSC(principal string) string {
	return fmt.Sprintf("SET AUTHREC PROFILE(%s) OBJTYPE(QUEUE) PRINCIPAL('%s') AUTHADD(%s)",
		r.Object, principal, strings.Join(r.Authorities, ","))
}

// Authorities lists what a consumer's user needs beyond getting from its
// input queue. legacyClusterOpen selects IBM MQ classes for JMS 9.1.0 Fix
// Pack 1 and earlier, and 9.1.1, which open a cluster queue's local instance
// with MQOO_INPUT_AS_Q_DEF as well as MQOO_INQUIRE to read BOTHRESH (R7a).
func Authorities(style Style, q InputQueue, qmgrDeadQ string, legacyClusterOpen bool) []Requirement {
	if !style.jms() {
		// R1f: a plain MQI consumer never inquires or moves; a delivery-count
		// application's own move needs whatever it opens, which R7 does not name.
		return nil
	}
	var out []Requirement
	if legacyClusterOpen && q.Cluster {
		out = append(out, Requirement{Rule: "R7a", Object: q.Base, Authorities: []string{"INQ", "GET"},
			Why: "older JMS levels open the local instance of a cluster queue with MQOO_INPUT_AS_Q_DEF and MQOO_INQUIRE to read BOTHRESH and BOQNAME"})
	} else {
		out = append(out, Requirement{Rule: "R7a", Object: q.Base, Authorities: []string{"INQ"},
			Why: "the consumer opens the base queue with MQOO_INQUIRE to read BOTHRESH and BOQNAME the first time it sees BackoutCount > 0"})
	}
	if q.BackoutQName != "" {
		out = append(out, Requirement{Rule: "R7b", Object: q.BackoutQName, Authorities: []string{"PUT", "PASSALL"},
			Why: "moving poison to the backout queue keeps the original context"})
	}
	if qmgrDeadQ != "" {
		out = append(out, Requirement{Rule: "R7b", Object: qmgrDeadQ, Authorities: []string{"PUT", "PASSALL"},
			Why: "moving poison to the dead-letter queue keeps the original context"})
	}
	return out
}

// ExplainNotAuthorized says which R7 requirement an MQRC_NOT_AUTHORIZED on
// object most likely broke, or nil when none names it.
func ExplainNotAuthorized(reqs []Requirement, object string) []Line {
	var out []Line
	for _, r := range reqs {
		if r.Object == object {
			out = append(out, line(r.Rule, "%s needs %s on %s: %s", "the consumer's user", strings.Join(r.Authorities, "+"), r.Object, r.Why))
		}
	}
	return out
}

package actions

import (
	"fmt"
	"strings"
)

// consumers applies R1b (stale cached attributes), R1f (plain MQI consumers),
// R9a (unusable delivery-count thresholds) and R9c (paused MDBs).
func (l *linter) consumers() {
	for _, c := range l.in.Consumers {
		q, known := l.inv.Queue(c.Queue)
		who := c.ID
		if who == "" {
			who = c.Style.String() + " consumer"
		}
		switch {
		case c.Style.jms() && c.Cached != nil && known:
			cur := CachedAttrs{BackoutThresh: q.BackoutThresh, BackoutQName: strings.TrimSpace(q.BackoutQName)}
			if *c.Cached != cur {
				l.add(Warning, "R1b", c.Queue, fmt.Sprintf("%s cached BOTHRESH %d BOQNAME %s; the queue now has BOTHRESH %d BOQNAME %s: it will not see the change until it reconnects",
					who, c.Cached.BackoutThresh, orNone(c.Cached.BackoutQName), cur.BackoutThresh, orNone(cur.BackoutQName)))
			}
		case c.Style == MQI:
			l.add(Warning, "R1f", c.Queue, fmt.Sprintf("%s is a plain MQI application: the queue manager never acts on BOTHRESH, so a poison message loops unless it checks BackoutCount itself", who))
		case c.Style == DeliveryCount && c.Policy.Threshold > AmlenMaxDeliveryCount:
			l.add(Warning, "R9a", c.Queue, fmt.Sprintf("%s uses delivery-count threshold %d, above the JMSXDeliveryCount cap of %d: it never fires", who, c.Policy.Threshold, AmlenMaxDeliveryCount))
		}
		if c.Paused {
			depth := l.status[c.Queue].Depth
			sev := Warning
			if depth > 0 {
				sev = Critical
			}
			l.add(sev, "R9c", c.Queue, fmt.Sprintf("%s is paused by maxDeliveryFailures with %d messages waiting: restart it promptly", who, depth))
		}
	}
}

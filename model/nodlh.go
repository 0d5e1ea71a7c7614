package model

import "strings"

// NoDLHAdvice says what to do about the messages of a DEADQ group without
// an MQDLH (R8g), whose key names where they were going when a JMS
// destination says so (GroupKey.DestQ). No queue manager or channel put
// them there: an application did, so runmqdlq never processes them and a
// requeue has no header to read its target from. What to do comes first:
// a narrow screen cuts the end.
func (q *QMgrState) NoDLHAdvice(deadq string, k GroupKey) string {
	const tail = "; runmqdlq skips them (R8g)"
	if k.DestQ == "" {
		return "no MQDLH, by an application; nothing says where they go: ask it (PutApplName)" + tail
	}
	if q.inv != nil {
		if in, err := q.inv.ResolveInput(k.DestQ); err == nil && strings.TrimSpace(in.BackoutQName) == deadq {
			return "no MQDLH: " + k.DestQ + "'s JMS consumer moved them (R5): requeue once it takes them" + tail
		}
	}
	return "no MQDLH, by an application: move them to " + k.DestQ + " (their JMS destination)" + tail
}

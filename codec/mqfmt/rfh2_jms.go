package mqfmt

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// JMS is the typed view of the JMS header fields that IBM MQ classes for JMS
// keep in an MQRFH2's jms and mcd folders. Absent fields are zero; the Has
// flags tell an absent number from a zero one.
type JMS struct {
	Dst string // JMSDestination URI, e.g. queue:///ORDERS.IN
	Rto string // JMSReplyTo URI
	Tms int64  // JMSTimestamp, milliseconds since 1970
	Exp int64  // JMSExpiration, milliseconds since 1970; 0 = never
	Pri int32  // JMSPriority, 0..9
	Dlv int32  // JMSDeliveryMode: 1 non-persistent, 2 persistent
	Cid string // JMSCorrelationID
	Gid string // JMSXGroupID
	Seq int32  // JMSXGroupSeq

	HasTms, HasExp, HasPri, HasDlv, HasSeq bool

	Msd  string // mcd: message service domain: jms_text, jms_bytes, jms_map, jms_stream, jms_object, jms_none
	Type string // mcd: message type
	Set  string // mcd: message set
	Fmt  string // mcd: message format
}

// JMS reads the jms and mcd folders. Numbers that do not parse are reported in
// the error (joined, one per field) and left unset; the strings are filled
// regardless, so a damaged Tms does not hide the Dst a requeue needs.
func (r *RFH2) JMS() (JMS, error) {
	jms, mcd := r.Folder("jms"), r.Folder("mcd")
	j := JMS{
		Dst: jms.Get("Dst"), Rto: jms.Get("Rto"), Cid: jms.Get("Cid"), Gid: jms.Get("Gid"),
		Msd: mcd.Get("Msd"), Type: mcd.Get("Type"), Set: mcd.Get("Set"), Fmt: mcd.Get("Fmt"),
	}
	var errs []error
	num := func(name string, bits int, has *bool) int64 {
		e, ok := jms.Lookup(name)
		if !ok || e.Nil || e.IsGroup() {
			return 0
		}
		v, err := strconv.ParseInt(strings.TrimSpace(e.Value), 10, bits)
		if err != nil {
			errs = append(errs, fmt.Errorf("jms %s %q is not a %d-bit integer", name, e.Value, bits))
			return 0
		}
		*has = true
		return v
	}
	j.Tms = num("Tms", 64, &j.HasTms)
	j.Exp = num("Exp", 64, &j.HasExp)
	j.Pri = int32(num("Pri", 32, &j.HasPri))
	j.Dlv = int32(num("Dlv", 32, &j.HasDlv))
	j.Seq = int32(num("Seq", 32, &j.HasSeq))
	return j, errors.Join(errs...)
}

// Destination is a parsed JMS destination URI.
type Destination struct {
	Topic  bool   // topic://; otherwise queue://
	QMgr   string // queue manager of a queue URI; "" = the local one
	Name   string // queue name or topic string
	Params string // what follows '?', e.g. persistence=2
}

// ParseDestination parses a JMS destination URI as IBM MQ classes for JMS
// write it in the jms folder's Dst and Rto: queue://QMGR/QNAME?params,
// queue:///QNAME (local queue manager), or topic://TOPIC?params. The poison
// engine uses it to find the input queue of a BOQ message (R10c).
func ParseDestination(uri string) (Destination, error) {
	var d Destination
	rest, params, _ := strings.Cut(uri, "?")
	d.Params = params
	switch {
	case strings.HasPrefix(rest, "queue://"):
		qm, name, ok := strings.Cut(rest[len("queue://"):], "/")
		if !ok || name == "" {
			return Destination{}, fmt.Errorf("JMS destination %q: no queue name after queue://QMGR/", uri)
		}
		d.QMgr, d.Name = qm, name
	case strings.HasPrefix(rest, "topic://"):
		d.Topic, d.Name = true, rest[len("topic://"):]
		if d.Name == "" {
			return Destination{}, fmt.Errorf("JMS destination %q: no topic after topic://", uri)
		}
	default:
		return Destination{}, fmt.Errorf("JMS destination %q: neither queue:// nor topic://", uri)
	}
	return d, nil
}

package actions

import (
	"fmt"
	"strings"
)

// Style is how a consumer receives messages. It decides where poison goes when
// a put fails (R4), whether the move shares the application's unit of work
// (R3), and whether anything acts on BOTHRESH at all (R1f).
type Style int

// Consumer styles. The first four are IBM MQ classes for JMS styles; MQI is a
// plain MQI application; DeliveryCount is an Eclipse Amlen style consumer that
// detects poison from JMSXDeliveryCount (R9).
const (
	SyncTransacted    Style = iota + 1 // receive*() in a transacted session
	SyncNonTransacted                  // receive*() in a non-transacted session
	Async                              // MessageListener
	ASF                                // ConnectionConsumer / activation specification
	DeliveryCount                      // JMSXDeliveryCount against a threshold (R9)
	MQI                                // plain MQI application that only rolls back (R1f)
)

var styleNames = [...]string{
	SyncTransacted:    "sync-transacted",
	SyncNonTransacted: "sync-nontransacted",
	Async:             "async",
	ASF:               "asf",
	DeliveryCount:     "delivery-count",
	MQI:               "mqi",
}

// String returns the style's name as flags and the demo configuration spell it.
func (s Style) String() string {
	if s >= SyncTransacted && s <= MQI {
		return styleNames[s]
	}
	return fmt.Sprintf("style(%d)", int(s))
}

// ParseStyle reads a style name ("sync-transacted", "async", "asf", ...).
func ParseStyle(name string) (Style, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for s := SyncTransacted; s <= MQI; s++ {
		if styleNames[s] == n {
			return s, nil
		}
	}
	return 0, fmt.Errorf("consumer style %q: want one of %s", name, strings.Join(styleNames[1:], ", "))
}

// jms reports whether the style is an IBM MQ classes for JMS style, the only
// ones that read BOTHRESH and BOQNAME (R1f).
func (s Style) jms() bool { return s >= SyncTransacted && s <= ASF }

// Outcome is how the unit of work around a delivery ends, when the caller knows.
type Outcome int

// Transaction outcomes. OutcomeUnknown makes routing show every branch.
const (
	OutcomeUnknown Outcome = iota
	OutcomeCommit
	OutcomeRollback
)

// String returns "commit", "rollback" or "unknown".
func (o Outcome) String() string {
	switch o {
	case OutcomeCommit:
		return "commit"
	case OutcomeRollback:
		return "rollback"
	}
	return "unknown"
}

// PoisonChoice is what a delivery-count application does with a message whose
// JMSXDeliveryCount reached its threshold (R9b).
type PoisonChoice int

// R9b's three choices.
const (
	PoisonRollback PoisonChoice = iota // roll back to the queue it came from
	PoisonMove                         // move to a special queue
	PoisonDiscard                      // discard (the message is lost)
)

// DeliveryCountPolicy is a delivery-count consumer's poison handling (R9).
type DeliveryCountPolicy struct {
	// Threshold is the JMSXDeliveryCount at which the application treats the
	// message as poison; 0 = the application does not check.
	Threshold int32
	OnPoison  PoisonChoice
	// SpecialQueue is where PoisonMove puts the message.
	SpecialQueue string
	// MaxDeliveryFailures is the activation specification's maxDeliveryFailures:
	// the MDB pauses after that many failures (R9c); 0 = never pauses.
	MaxDeliveryFailures int32
}

// AmlenMaxDeliveryCount is the cap Eclipse Amlen puts on JMSXDeliveryCount
// (R9a): a threshold above it never fires.
const AmlenMaxDeliveryCount = 64

package demo

import (
	"time"
)

// Scenario is a loaded and validated scenario: the queue managers with their
// MQSC, the links, the applications and the timed events. Fields may be
// changed between Load and Start (a seed from a flag, an extra MQSC script);
// Start validates again.
type Scenario struct {
	Name        string
	Description string
	// Seed drives every random choice: payload contents, which messages are
	// poison, which deliveries a fraction predicate fails, interval jitter.
	Seed uint64
	// Duration is how much time `poisonwatch sim` simulates by default.
	Duration time.Duration
	// Warmup is how much history the live demo simulates before it follows
	// the wall clock, so that the dashboard opens on an incident in progress.
	Warmup time.Duration
	// Poll is how long an idle consumer waits before it polls again, unless
	// it says otherwise.
	Poll      time.Duration
	QMgrs     []QMgrSpec
	Links     []LinkSpec
	Producers []ProducerSpec
	Consumers []ConsumerSpec
	Events    []EventSpec
}

// QMgrSpec is one embedded queue manager and its MQSC.
type QMgrSpec struct {
	Name        string
	Description string
	// Scripts holds the MQSC scripts applied in order when the queue manager
	// is created.
	Scripts []Script
}

// Script is one MQSC script and where it came from, for error messages.
type Script struct {
	Name string
	Text string
}

// LinkSpec links queue managers with channels from each to each other: a
// message on a transmission queue named after another member is delivered
// there, or dead-lettered there with an MQDLH as a receiving channel does.
type LinkSpec struct {
	QMgrs []string
}

// ProducerSpec is an application that puts messages.
type ProducerSpec struct {
	// Name is the application tag of its connection and the PutApplName of
	// its messages.
	Name string
	QMgr string
	// Queue is the target queue (local, alias, remote definition); Topic a
	// topic string to publish on instead. ToQMgr sets ObjectQMgrName, routing
	// the put through a queue manager alias or transmission queue.
	Queue  string
	Topic  string
	ToQMgr string
	// Queues, instead of Queue, puts each message on the next of these
	// queues in turn: a batch job that leaves a few messages on many queues.
	Queues []string
	// Rate is messages per second; 0 with Burst set produces bursts only.
	Rate float64
	// Count stops the producer after that many messages; 0 = no limit.
	Count int
	// Start and Stop delay and end the producer, counted from the run's start.
	Start, Stop time.Duration
	Burst       BurstSpec
	Payload     PayloadKind
	// Poison is the fraction of messages whose body carries the word POISON,
	// which the consumers' failure predicates usually look for.
	Poison float64
	// Persistence is MQPER_*: PerNotPersistent, PerPersistent or
	// PerPersistenceAsDef.
	Persistence int32
	// Report holds the MQRO_* options of every message.
	Report      int32
	ReplyTo     string
	ReplyToQMgr string
	// Expiry is the message lifetime; 0 = unlimited.
	Expiry time.Duration
	// Priority is 0..9, or -1 for the queue's default priority.
	Priority int32
	// DeadLetter makes the producer write dead-letter messages as a receiving
	// channel does (an MQDLH in front of the payload) for reasons the embedded
	// channels do not produce themselves.
	DeadLetter *DeadLetterSpec
	// User is the connection's user ("" = the queue manager's process user,
	// an administrator).
	User string
}

// BurstSpec puts Count messages at Rate per second every Every.
type BurstSpec struct {
	Every time.Duration
	Count int
	Rate  float64
}

// DeadLetterSpec describes the MQDLH a dead-letter producer writes.
type DeadLetterSpec struct {
	Reason   int32
	DestQ    string
	DestQMgr string
	PutAppl  string // PutApplName of the MQDLH; "amqrmppa" (the channel process) when empty
}

// ConsumerSpec is an application that gets messages through the poison
// engine's consumer of its style.
type ConsumerSpec struct {
	Name string
	QMgr string
	// Queue is the input queue (local or alias); Subscription subscribes
	// instead and consumes the managed queue.
	Queue        string
	Subscription *SubscriptionSpec
	Style        string
	// Instances is how many connections consume (IPPROCS); they share one
	// subscription, and an ASF stop (R4f) stops all of them.
	Instances int
	// Process is how long the application takes per delivered message.
	Process time.Duration
	// Poll is the idle interval between polls of an empty queue.
	Poll time.Duration
	// Fail is the failure predicate (see ParsePredicate); "" = never fails.
	Fail string
	// Outcome is what a sync-transacted application does after a poison
	// move: "commit" (default) or "rollback".
	Outcome string
	// DeliveryCount configures the delivery-count style (R9).
	DeliveryCount DeliveryCountSpec
	// MaxSequentialDeliveryFailures is an asf MDB's activation
	// specification property on IBM MQ's resource adapter in WebSphere
	// Liberty: it pauses after that many + 1 failures in a row (R6i); nil
	// or negative = never (IBM's default, -1).
	MaxSequentialDeliveryFailures *int32
	// ResumeAfter restarts a paused MDB (R9c, R6i) after this long; 0 = never.
	ResumeAfter time.Duration
	Start       time.Duration
	User        string
}

// SubscriptionSpec is the subscription a consumer reads.
type SubscriptionSpec struct {
	Topic   string `toml:"topic"` // topic string, MQ wildcards '#' and '+' allowed
	Durable bool   `toml:"durable"`
	Name    string `toml:"name"` // subscription name; required when durable
}

// DeliveryCountSpec is a delivery-count consumer's policy (R9).
type DeliveryCountSpec struct {
	Threshold           int32
	OnPoison            string // "rollback", "move", "discard"
	SpecialQueue        string
	MaxDeliveryFailures int32
}

// EventSpec runs MQSC on a queue manager at a moment of the run, for
// incidents that start or end part way (a DEADQ put-inhibited for a while),
// or stops or starts the queue manager (endmqm -i, strmqm).
type EventSpec struct {
	At   time.Duration
	QMgr string
	MQSC string
	// Stop ends the queue manager: its connections break (2009) and new ones
	// are refused (2059) until an event starts it again.
	Stop bool
	// Start starts a stopped queue manager.
	Start bool
}

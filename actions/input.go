package actions

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// RouteMessage is what routing needs to know about one message: its descriptor and
// what its header chain says.
type RouteMessage struct {
	MD mqfmt.MQMD
	// HasRFH2 is true when the header chain holds an MQRFH2 (a JMS message):
	// it decides between R5a and R5b.
	HasRFH2 bool
	// JMSDestination is the RFH2 jms folder's Dst, "" when none.
	JMSDestination string
	// Length is the message data's length in bytes (headers included), 0 when
	// unknown. It lets routing predict MQRC_MSG_TOO_BIG_FOR_Q on a move.
	Length int
	// Unparseable marks a message JMS cannot interpret: an ASF consumer removes
	// it with MQRC_JMS_FORMAT_ERROR (R6).
	Unparseable bool
	// Unmatched marks a point-to-point message no ConnectionConsumer's selector
	// wants, on a queue connection factory that does not retain unwanted
	// messages: an ASF consumer removes it with MQRC_MSG_NOT_MATCHED (R6).
	Unmatched bool
}

// InputQueue is the input queue after resolution: the queue a consumer opens
// and the queue whose BOTHRESH and BOQNAME apply (the base local queue of an
// alias, the local instance of a cluster queue, the managed queue of a
// subscription, which inherits its attributes from the topic's model queue).
type InputQueue struct {
	Name string // as the consumer names it (alias, cluster queue, subscription)
	Base string // the queue whose attributes apply and that holds the messages
	// Path explains the resolution, one step per element, for the explanation.
	Path          []string
	BackoutThresh int32
	BackoutQName  string
	DefPersistent bool // DEFPSIST, for messages put with MQPER_PERSISTENCE_AS_Q_DEF
	MaxMsgLen     int32
	// Cluster is true when Base is the local instance of a cluster queue: older
	// JMS levels need get authority on it to inquire (R7a).
	Cluster bool
}

// CachedAttrs are the BOTHRESH and BOQNAME a JMS consumer inquired the first
// time it saw BackoutCount > 0 and keeps for the life of its connection (R1b).
type CachedAttrs struct {
	BackoutThresh int32
	BackoutQName  string
}

// QueueFacts is what is known of a put target (a BOQ or the DEADQ). With Known
// false nothing is predicted: the put is assumed to work and its failure path
// is still shown.
type QueueFacts struct {
	Known    bool
	Exists   bool
	Type     mqwatch.QueueType // of the name itself; an alias's facts come from its base
	Resolved string            // the local queue the name resolves to, when known
	// BaseMissing: the name is an alias whose base queue does not exist, so
	// opening it fails with MQRC_UNKNOWN_ALIAS_BASE_Q.
	BaseMissing  bool
	PutInhibited bool
	Full         bool // CURDEPTH >= MAXDEPTH
	Depth        int32
	MaxDepth     int32
	MaxMsgLen    int32 // 0 = unknown
	// PutDenied records that a put by the consumer's user was refused with
	// MQRC_NOT_AUTHORIZED: moving poison needs put and passall authority (R7b).
	PutDenied bool
}

// FactSource answers facts about a queue by name.
type FactSource interface {
	Facts(name string) QueueFacts
}

// FactMap is a FactSource over a map; names not in it are unknown.
type FactMap map[string]QueueFacts

// Facts returns the facts stored for name, or unknown facts.
func (m FactMap) Facts(name string) QueueFacts { return m[name] }

// ConsumerSpec describes the consuming application as routing sees it.
type ConsumerSpec struct {
	Style Style
	// Outcome is the outcome of the transaction the delivery (and, for
	// sync-transacted, the poison move) belongs to, when known. It decides
	// R4a/R4b and whether a sync-transacted move stands (R3a); ASF and async
	// moves are outside any delivery's unit of work (R3b), so it changes
	// nothing for them.
	Outcome Outcome
	// Cached holds the attributes a JMS consumer cached (R1b); nil when it has
	// not inquired yet, and then the current attributes are used.
	Cached *CachedAttrs
	// Policy is the delivery-count style's poison handling (R9).
	Policy DeliveryCountPolicy
	// Failures is a delivery-count MDB's count of consecutive delivery
	// failures, which maxDeliveryFailures is compared with (R9c); nil when
	// unknown, and then the message's BackoutCount stands for it.
	Failures *int32
	// PauseAfter is, for an asf MDB on IBM MQ's resource adapter in
	// WebSphere Liberty, its activation specification's
	// maxSequentialDeliveryFailures + 1: the sequential delivery failures
	// after which the resource adapter pauses the MDB (R6i); 0 = never (the
	// property's default, -1).
	PauseAfter int32
}

// RouteInput is everything Route looks at.
type RouteInput struct {
	Message  RouteMessage
	Queue    InputQueue
	QMgr     mqwatch.QMgrInfo
	Consumer ConsumerSpec
	// Facts answers for the BOQ and the DEADQ; nil = nothing known.
	Facts FactSource
}

func (in *RouteInput) facts(name string) QueueFacts {
	if in.Facts == nil || name == "" {
		return QueueFacts{}
	}
	return in.Facts.Facts(name)
}

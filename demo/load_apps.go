package demo

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

type fileProducer struct {
	Name        string          `toml:"name"`
	QMgr        string          `toml:"qmgr"`
	Queue       string          `toml:"queue"`
	Queues      []string        `toml:"queues"`
	Topic       string          `toml:"topic"`
	ToQMgr      string          `toml:"to_qmgr"`
	Rate        float64         `toml:"rate"`
	Count       int             `toml:"count"`
	Start       time.Duration   `toml:"start"`
	Stop        time.Duration   `toml:"stop"`
	Burst       fileBurst       `toml:"burst"`
	Payload     string          `toml:"payload"`
	Poison      float64         `toml:"poison"`
	Persistence string          `toml:"persistence"`
	Report      []string        `toml:"report"`
	ReplyTo     string          `toml:"reply_to"`
	ReplyToQMgr string          `toml:"reply_to_qmgr"`
	Expiry      time.Duration   `toml:"expiry"`
	Priority    *int32          `toml:"priority"`
	DeadLetter  *fileDeadLetter `toml:"dead_letter"`
	User        string          `toml:"user"`
}

type fileBurst struct {
	Every time.Duration `toml:"every"`
	Count int           `toml:"count"`
	Rate  float64       `toml:"rate"`
}

type fileDeadLetter struct {
	Reason   int32  `toml:"reason"`
	DestQ    string `toml:"dest_q"`
	DestQMgr string `toml:"dest_qmgr"`
	PutAppl  string `toml:"put_appl"`
}

type fileConsumer struct {
	Name          string            `toml:"name"`
	QMgr          string            `toml:"qmgr"`
	Queue         string            `toml:"queue"`
	Subscription  *SubscriptionSpec `toml:"subscription"`
	Style         string            `toml:"style"`
	Instances     int               `toml:"instances"`
	Process       time.Duration     `toml:"process"`
	Poll          time.Duration     `toml:"poll"`
	Fail          string            `toml:"fail"`
	Outcome       string            `toml:"outcome"`
	DeliveryCount fileDeliveryCount `toml:"delivery_count"`
	// MaxSequentialDeliveryFailures is an asf MDB's activation
	// specification property in WebSphere Liberty (R6i); unset = -1.
	MaxSequentialDeliveryFailures *int32        `toml:"max_sequential_delivery_failures"`
	ResumeAfter                   time.Duration `toml:"resume_after"`
	Start                         time.Duration `toml:"start"`
	User                          string        `toml:"user"`
}

type fileDeliveryCount struct {
	Threshold           int32  `toml:"threshold"`
	OnPoison            string `toml:"on_poison"`
	SpecialQueue        string `toml:"special_queue"`
	MaxDeliveryFailures int32  `toml:"max_delivery_failures"`
}

func (p *fileProducer) spec() (ProducerSpec, error) {
	s := ProducerSpec{Name: p.Name, QMgr: p.QMgr, Queue: p.Queue, Queues: p.Queues, Topic: p.Topic, ToQMgr: p.ToQMgr,
		Rate: p.Rate, Count: p.Count, Start: p.Start, Stop: p.Stop, Burst: BurstSpec(p.Burst),
		Poison: p.Poison, ReplyTo: p.ReplyTo, ReplyToQMgr: p.ReplyToQMgr, Expiry: p.Expiry,
		Priority: -1, User: p.User}
	var err error
	if s.Payload, err = ParsePayloadKind(p.Payload); err != nil {
		return s, err
	}
	if s.Persistence, err = parsePersistence(p.Persistence); err != nil {
		return s, err
	}
	if s.Report, err = ParseReport(p.Report); err != nil {
		return s, err
	}
	if p.Priority != nil {
		s.Priority = *p.Priority
	}
	if p.DeadLetter != nil {
		d := DeadLetterSpec(*p.DeadLetter)
		s.DeadLetter = &d
	}
	return s, nil
}

func (c *fileConsumer) spec() ConsumerSpec {
	return ConsumerSpec{Name: c.Name, QMgr: c.QMgr, Queue: c.Queue, Subscription: c.Subscription,
		Style: c.Style, Instances: c.Instances, Process: c.Process, Poll: c.Poll, Fail: c.Fail,
		Outcome: c.Outcome, DeliveryCount: DeliveryCountSpec(c.DeliveryCount),
		MaxSequentialDeliveryFailures: c.MaxSequentialDeliveryFailures,
		ResumeAfter:                   c.ResumeAfter, Start: c.Start, User: c.User}
}

func parsePersistence(s string) (int32, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "as-queue":
		return mqfmt.PerPersistenceAsDef, nil
	case "persistent", "yes":
		return mqfmt.PerPersistent, nil
	case "non-persistent", "no":
		return mqfmt.PerNotPersistent, nil
	}
	return 0, fmt.Errorf("persistence %q: want persistent, non-persistent or as-queue", s)
}

// reportNames are the report options a scenario may set, by their MQRO_*
// meaning in lower case with dashes. The three exception options and the
// disposition options are exclusive within their group, as in the MQI.
var reportNames = map[string]int32{
	"exception":                mqfmt.ROException,
	"exception-with-data":      mqfmt.ROExceptionWithData,
	"exception-with-full-data": mqfmt.ROExceptionWithFullData,
	"discard":                  mqfmt.RODiscardMsg,
	"dead-letter":              mqfmt.RODeadLetterQ,
	"pass-msg-id":              mqfmt.ROPassMsgId,
	"pass-correl-id":           mqfmt.ROPassCorrelId,
	"pass-discard-and-expiry":  mqfmt.ROPassDiscardAndExpiry,
	"coa":                      mqfmt.ROCOA,
	"cod":                      mqfmt.ROCOD,
}

// ParseReport turns report option names ("exception-with-data", "discard",
// "pass-msg-id", ...) into the MQMD Report field.
func ParseReport(names []string) (int32, error) {
	var ro int32
	exceptions, dispositions := 0, 0
	for _, n := range names {
		v, ok := reportNames[strings.ToLower(strings.TrimSpace(n))]
		if !ok {
			known := make([]string, 0, len(reportNames))
			for k := range reportNames {
				known = append(known, k)
			}
			sort.Strings(known)
			return 0, fmt.Errorf("report option %q: want one of %s", n, strings.Join(known, ", "))
		}
		switch strings.ToLower(strings.TrimSpace(n)) {
		case "exception", "exception-with-data", "exception-with-full-data":
			exceptions++
		case "discard", "dead-letter":
			dispositions++
		}
		ro |= v
	}
	if exceptions > 1 || dispositions > 1 {
		return 0, fmt.Errorf("report options %v: at most one exception option and one of discard/dead-letter", names)
	}
	return ro, nil
}

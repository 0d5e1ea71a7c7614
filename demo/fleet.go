package demo

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Fleet sizes: the platform team's fleet the fleet view and its benchmark
// are measured on, and the bounds a generated one must stay within.
const (
	DefaultFleetQMgrs  = 50
	DefaultFleetQueues = 1000
	MinFleetQueues     = 20
	MaxFleetQueues     = 10000
)

// FleetOptions size a generated fleet.
type FleetOptions struct {
	QMgrs  int // queue managers; DefaultFleetQMgrs when 0
	Queues int // queues on each, its DEADQ and backout queues included; DefaultFleetQueues when 0
	Seed   uint64
}

// fleetDeadQ is IBM's default dead-letter queue, made the DEADQ as most
// installations do.
const fleetDeadQ = "SYSTEM.DEAD.LETTER.QUEUE"

// Fleet generates a fleet of queue managers with many queues each, most of
// them quiet, so that a fleet view has something to sort: every queue
// manager runs an order flow that is fine and a batch job that leaves a few
// messages on every tenth queue; then, by position, the 1st of every ten has
// a poison loop nobody configured for (R1c), the 3rd a backout queue filling
// up (and, once full, poison reaching the DEADQ), the 5th a channel
// dead-lettering for a queue it does not have, the 7th stuck poison under a
// plain MQI consumer (R8c). The last one stops 45 seconds after the warm-up,
// as a queue manager does that an administrator ends or whose host goes away.
func Fleet(o FleetOptions) (*Scenario, error) {
	if o.QMgrs == 0 {
		o.QMgrs = DefaultFleetQMgrs
	}
	if o.Queues == 0 {
		o.Queues = DefaultFleetQueues
	}
	if o.QMgrs < 1 || o.QMgrs > maxQMgrs {
		return nil, fmt.Errorf("fleet: %d queue managers, want 1 to %d", o.QMgrs, maxQMgrs)
	}
	if o.Queues < MinFleetQueues || o.Queues > MaxFleetQueues {
		return nil, fmt.Errorf("fleet: %d queues per queue manager, want %d to %d", o.Queues, MinFleetQueues, MaxFleetQueues)
	}
	s := &Scenario{Name: fmt.Sprintf("fleet %dx%d", o.QMgrs, o.Queues), Seed: o.Seed,
		Description: fmt.Sprintf("%d queue managers of %d queues: poison loops, filling backout queues, dead letters, stuck poison, one stopped", o.QMgrs, o.Queues),
		Duration:    10 * time.Minute, Warmup: 10 * time.Minute, Poll: 500 * time.Millisecond}
	if s.Seed == 0 {
		s.Seed = 17
	}
	width := max(2, len(strconv.Itoa(o.QMgrs)))
	for k := 1; k <= o.QMgrs; k++ {
		f := fleetQMgr{name: fmt.Sprintf("QM%0*d", width, k), queues: o.Queues}
		f.kind = fleetKind(k % 10)
		if k == o.QMgrs && o.QMgrs > 1 {
			f.kind = fleetStopped
		}
		f.add(s)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("fleet: %w", err)
	}
	return s, nil
}

// fleetKind is the trouble a queue manager of the fleet has.
type fleetKind int

const (
	fleetLoop    fleetKind = 1 // R1c: BOTHRESH 0, async consumers roll the head back forever
	fleetFilling fleetKind = 3 // a small backout queue filling up
	fleetDLQ     fleetKind = 5 // a channel dead-letters 2085 for INVOICE.IN
	fleetStuck   fleetKind = 7 // R8c: BOTHRESH 5 read by a plain MQI program
	fleetStopped fleetKind = -1
)

// fleetQMgr builds one queue manager of the fleet: its MQSC and apps.
type fleetQMgr struct {
	name   string
	queues int
	kind   fleetKind
}

// boqs is how many backout queues the queue manager has: one per fifty
// queues, each the BOQNAME of one input queue (inputs 0 .. boqs-1).
func (f fleetQMgr) boqs() int   { return max(2, f.queues/50) }
func (f fleetQMgr) inputs() int { return f.queues - 1 - f.boqs() }

func fleetInput(i int) string { return fmt.Sprintf("APP.%04d.IN", i) }
func fleetBOQ(i int) string   { return fmt.Sprintf("APP.%04d.BO", i) }

// mqsc defines the queues as a careful administrator does: each backout
// queue takes a message of its input queue plus the MQRFH2 a JMS move adds
// (R5b), and the DEADQ one of a backout queue plus its MQDLH (R8a, R8b).
func (f fleetQMgr) mqsc() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ALTER QMGR DEADQ(%s) MONQ(MEDIUM)\n", fleetDeadQ)
	fmt.Fprintf(&b, "ALTER QLOCAL(%s) MAXDEPTH(100000)\n", fleetDeadQ)
	for i := range f.boqs() {
		depth := 5000
		if f.kind == fleetFilling && i == 1 {
			depth = 120 // fills in about a quarter of an hour of poison
		}
		fmt.Fprintf(&b, "DEFINE QLOCAL(%s) MAXDEPTH(%d) MAXMSGL(2097152) DESCR('backout queue of %s')\n", fleetBOQ(i), depth, fleetInput(i))
	}
	for i := range f.inputs() {
		fmt.Fprintf(&b, "DEFINE QLOCAL(%s) MAXDEPTH(5000) MAXMSGL(1048576)", fleetInput(i))
		switch {
		case f.kind == fleetStuck && i == 2:
			fmt.Fprintf(&b, " BOTHRESH(5) BOQNAME(%s)", fleetBOQ(i))
		case i < f.boqs():
			fmt.Fprintf(&b, " BOTHRESH(3) BOQNAME(%s)", fleetBOQ(i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (f fleetQMgr) add(s *Scenario) {
	s.QMgrs = append(s.QMgrs, QMgrSpec{Name: f.name, Scripts: []Script{{Name: f.name + " fleet objects", Text: f.mqsc()}}})
	app := func(role string) string { return f.name + "." + role }
	s.Producers = append(s.Producers,
		ProducerSpec{Name: app("Orders"), QMgr: f.name, Queue: fleetInput(0), Payload: PayloadJMSJSON, Rate: 0.5, Priority: -1})
	s.Consumers = append(s.Consumers,
		ConsumerSpec{Name: app("OrderMDB"), QMgr: f.name, Queue: fleetInput(0), Style: "async", Process: 50 * time.Millisecond})
	var loaded []string
	for i := 10; i < f.inputs(); i += 10 {
		loaded = append(loaded, fleetInput(i))
	}
	if len(loaded) > 0 {
		s.Producers = append(s.Producers, ProducerSpec{Name: app("Batch"), QMgr: f.name, Queues: loaded,
			Payload: PayloadString, Rate: 10, Count: 3 * len(loaded), Priority: -1})
	}
	poison := func(queue, style string, payload PayloadKind, poison float64, instances int) {
		s.Producers = append(s.Producers, ProducerSpec{Name: app("Feed"), QMgr: f.name, Queue: queue,
			Payload: payload, Rate: 0.5, Poison: poison, Priority: -1})
		s.Consumers = append(s.Consumers, ConsumerSpec{Name: app("Worker"), QMgr: f.name, Queue: queue, Style: style,
			Instances: instances, Process: 100 * time.Millisecond, Fail: "body contains POISON"})
	}
	switch f.kind {
	case fleetLoop:
		poison(fleetInput(f.boqs()), "async", PayloadJMSJSON, 0.05, 2)
	case fleetFilling:
		poison(fleetInput(1), "sync-transacted", PayloadJMSJSON, 0.3, 1)
	case fleetStuck:
		poison(fleetInput(2), "mqi", PayloadString, 0.03, 1)
	case fleetDLQ:
		s.Producers = append(s.Producers, ProducerSpec{Name: app("Channel"), QMgr: f.name, Queue: fleetDeadQ,
			Payload: PayloadString, Rate: 0.5, Priority: -1,
			DeadLetter: &DeadLetterSpec{Reason: 2085, DestQ: "INVOICE.IN", DestQMgr: f.name}})
	case fleetStopped:
		s.Events = append(s.Events, EventSpec{At: s.Warmup + 45*time.Second, QMgr: f.name, Stop: true})
	}
}

// ParseFleet reads the size of a fleet scenario: "fleet" (the defaults),
// "fleet:N" (N queue managers of the default size) or "fleet:NxM"; ok is
// false when name does not name a fleet at all.
func ParseFleet(name string) (o FleetOptions, ok bool, err error) {
	rest, found := strings.CutPrefix(name, "fleet")
	if !found || (rest != "" && rest[0] != ':') {
		return o, false, nil
	}
	if rest == "" {
		return o, true, nil
	}
	n, m, hasM := strings.Cut(rest[1:], "x")
	if o.QMgrs, err = strconv.Atoi(n); err != nil || o.QMgrs < 1 {
		return o, true, fmt.Errorf("fleet size %q: want fleet:N or fleet:NxM, N queue managers of M queues", name)
	}
	if hasM {
		if o.Queues, err = strconv.Atoi(m); err != nil || o.Queues < 1 {
			return o, true, fmt.Errorf("fleet size %q: want fleet:N or fleet:NxM, N queue managers of M queues", name)
		}
	}
	return o, true, nil
}

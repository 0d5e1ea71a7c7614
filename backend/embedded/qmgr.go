package embedded

import (
	"encoding/binary"
	"math/rand/v2"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Options configure an embedded queue manager. Only Name matters to most
// callers; the rest make tests deterministic.
type Options struct {
	Name string // queue manager name; "QM1" when empty
	// Now is the clock for PutDate/PutTime, expiry, message age and last
	// put/get times; time.Now when nil. Get and browse waits use real time.
	Now func() time.Time
	// CCSID is the queue manager's coded character set (1208 when 0); it
	// describes the headers the queue manager writes (MQXQH, MQDLH).
	CCSID int32
	// ProcessUser is the user of connections that give no user ("" in
	// ConnectOptions): the identity put in UserIdentifier. The operating
	// system user when empty. Authority treats such connections as the
	// administrator, as a local bindings application run by mqm.
	ProcessUser string
	// ProgramName is the application tag and PutApplName of connections that
	// give no ApplName; the executable's base name when empty.
	ProgramName string
	// Groups lists each user's groups, for authority records set with GROUP.
	// A member of group "mqm" has all authority, as on IBM MQ.
	Groups map[string][]string
	// Seed seeds the random source of probabilistic faults.
	Seed uint64
	// ChannelRetry is how long a linked channel waits before retrying a
	// message it could neither deliver nor dead-letter (1s when 0).
	ChannelRetry time.Duration
}

// qmgrAttrs are the queue manager attributes the model acts on.
type qmgrAttrs struct {
	descr     string
	deadQ     string
	defXmitQ  string
	maxMsgLen int32
	maxUMsgs  int32
	monQ      qmgrMonQ
	ccsid     int32
}

// qmgrMonQ is the queue manager's MONQ: NONE switches monitoring off for every
// queue whatever its own MONQ says; OFF only for queues with MONQ(QMGR).
type qmgrMonQ int

const (
	qmMonOff qmgrMonQ = iota
	qmMonNone
	qmMonLow
	qmMonMedium
	qmMonHigh
)

// QMgr is an embedded queue manager. It implements mqwatch.Connector. All its
// state sits behind one mutex: calls are short and never block while holding it.
type QMgr struct {
	name  string
	now   func() time.Time
	opts  Options
	start time.Time

	mu         sync.Mutex
	attrs      qmgrAttrs
	queues     map[string]*queue
	topics     map[string]*topic
	subs       map[*subscription]struct{}
	auth       *authStore
	conns      map[*conn]struct{}
	seq        uint64
	msgSerial  uint32
	connSerial uint32
	dynSerial  uint64
	faults     *Faults
	stats      statsTable
	xmitWake   chan struct{} // closed when a message appears on a transmission queue
	stopped    bool          // ended (Stop): connections are refused until Start
}

var _ mqwatch.Connector = (*QMgr)(nil)

// New creates a running queue manager with IBM's default objects
// (SYSTEM.DEFAULT.* queues, SYSTEM.DEAD.LETTER.QUEUE, the durable and
// non-durable subscription model queues, SYSTEM.BASE.TOPIC). As after crtmqm
// without -u, no dead-letter queue is set: ALTER QMGR DEADQ sets one.
func New(opts Options) *QMgr {
	if opts.Name == "" {
		opts.Name = "QM1"
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CCSID == 0 {
		opts.CCSID = 1208
	}
	if opts.ProcessUser == "" {
		opts.ProcessUser = osUser()
	}
	if opts.ProgramName == "" {
		opts.ProgramName = filepath.Base(os.Args[0])
	}
	if opts.ChannelRetry == 0 {
		opts.ChannelRetry = time.Second
	}
	qm := &QMgr{
		name:     opts.Name,
		now:      opts.Now,
		opts:     opts,
		start:    opts.Now(),
		queues:   map[string]*queue{},
		topics:   map[string]*topic{},
		subs:     map[*subscription]struct{}{},
		conns:    map[*conn]struct{}{},
		xmitWake: make(chan struct{}),
		attrs: qmgrAttrs{
			maxMsgLen: 4194304,
			maxUMsgs:  10000,
			ccsid:     opts.CCSID,
		},
	}
	qm.auth = newAuthStore(qm.name, opts.Groups)
	qm.faults = newFaults(opts.Seed)
	qm.stats = newStatsTable()
	qm.defineSystemObjects()
	return qm
}

// Name returns the queue manager name.
func (qm *QMgr) Name() string { return qm.name }

func osUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "mqm"
}

func (qm *QMgr) defineSystemObjects() {
	now := qm.now()
	local := defaultLocalAttrs()
	for _, n := range []string{"SYSTEM.DEFAULT.LOCAL.QUEUE", "SYSTEM.DEAD.LETTER.QUEUE", "SYSTEM.ADMIN.COMMAND.QUEUE"} {
		qm.queues[n] = newQueue(n, mqwatch.QLocal, local, now)
	}
	model := local
	model.DefType = mqwatch.TemporaryDynamic
	qm.queues["SYSTEM.DEFAULT.MODEL.QUEUE"] = newQueue("SYSTEM.DEFAULT.MODEL.QUEUE", mqwatch.QModel, model, now)
	qm.queues["SYSTEM.NDURABLE.MODEL.QUEUE"] = newQueue("SYSTEM.NDURABLE.MODEL.QUEUE", mqwatch.QModel, model, now)
	dur := local
	dur.DefType = mqwatch.PermanentDynamic
	qm.queues["SYSTEM.DURABLE.MODEL.QUEUE"] = newQueue("SYSTEM.DURABLE.MODEL.QUEUE", mqwatch.QModel, dur, now)
	qm.queues["SYSTEM.DEFAULT.ALIAS.QUEUE"] = newQueue("SYSTEM.DEFAULT.ALIAS.QUEUE", mqwatch.QAlias, queueAttrs{}, now)
	qm.queues["SYSTEM.DEFAULT.REMOTE.QUEUE"] = newQueue("SYSTEM.DEFAULT.REMOTE.QUEUE", mqwatch.QRemote, queueAttrs{}, now)
	qm.topics["SYSTEM.BASE.TOPIC"] = &topic{
		name: "SYSTEM.BASE.TOPIC", descr: "Base topic for ASPARENT resolution",
		durModel: "SYSTEM.DURABLE.MODEL.QUEUE", ndurModel: "SYSTEM.NDURABLE.MODEL.QUEUE",
		pub: yes, sub: yes, defPsist: no, defPrty: 0,
	}
	qm.topics["SYSTEM.DEFAULT.TOPIC"] = &topic{name: "SYSTEM.DEFAULT.TOPIC", defPrty: -1}
}

// nextMsgId returns a MsgId built as IBM MQ builds them: "AMQ ", the queue
// manager name padded to 12 characters, then 8 bytes unique to this queue
// manager (its start time in seconds and a counter, little-endian).
func (qm *QMgr) nextMsgId() [24]byte {
	var id [24]byte
	copy(id[:], "AMQ ")
	copy(id[4:16], padName(qm.name, 12))
	qm.msgSerial++
	binary.LittleEndian.PutUint32(id[16:], uint32(qm.start.Unix()))
	binary.LittleEndian.PutUint32(id[20:], qm.msgSerial)
	return id
}

// nextConnId returns a connection identifier as DISPLAY CONN shows them:
// "AMQC", the queue manager name padded to 12, then 8 unique bytes.
func (qm *QMgr) nextConnId() [24]byte {
	var id [24]byte
	copy(id[:], "AMQC")
	copy(id[4:16], padName(qm.name, 12))
	qm.connSerial++
	binary.LittleEndian.PutUint32(id[16:], uint32(qm.start.Unix()))
	binary.LittleEndian.PutUint32(id[20:], qm.connSerial)
	return id
}

// uniqueSuffix returns the 16 hexadecimal digits IBM appends to generated
// dynamic and managed queue names (derived from time and a counter).
func (qm *QMgr) uniqueSuffix() string {
	qm.dynSerial++
	var b [8]byte
	binary.BigEndian.PutUint32(b[:], uint32(qm.start.Unix()))
	binary.BigEndian.PutUint32(b[4:], uint32(qm.dynSerial))
	const hexd = "0123456789ABCDEF"
	out := make([]byte, 16)
	for i, c := range b {
		out[2*i], out[2*i+1] = hexd[c>>4], hexd[c&0xF]
	}
	return string(out)
}

// blanks is the longest blank padding a character field needs.
var blanks = strings.Repeat(" ", 48)

// padName cuts or blank-pads s to n characters, as the MQI fills character
// fields. Blank fields share one string instead of allocating.
func padName(s string, n int) string {
	switch {
	case len(s) >= n:
		return s[:n]
	case s == "" && n <= len(blanks):
		return blanks[:n]
	}
	return s + strings.Repeat(" ", n-len(s))
}

// newRand returns the seeded source for probabilistic faults.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15)) }

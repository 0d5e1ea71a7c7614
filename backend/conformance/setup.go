package conformance

// Principals the suite connects as. On IBM MQ they are operating-system (or
// LDAP) users; with the default group-based OAM on Linux each needs its own
// primary group, or the SET AUTHREC lines below grant the whole group.
const (
	// UserAdmin has every authority (member of the mqm group on IBM MQ). The
	// suite uses it for setup checks, clearing queues and administrative
	// inquiries, and for the context operations that need setall.
	UserAdmin = "mqm"
	// UserApp may connect, inquire, browse, get and put on CONF.** queues, but
	// has no passall or setall authority: the requeue that passes context fails
	// for it with 2035, as for user app of IBM's developer container.
	UserApp = "confapp"
	// UserMover is UserApp plus passall/passid: what an operator grants so
	// that a requeue can keep the original context (docs/poison-rules.md R7b).
	UserMover = "confmover"
	// UserNone exists but holds no authority record at all.
	UserNone = "confnone"
)

// Objects of SetupMQSC that tests refer to by name.
const (
	qDeadQ      = "CONF.DEADQ"
	qMain       = "CONF.Q1"
	qOther      = "CONF.Q2"
	qSmall      = "CONF.SMALL"
	qPutInh     = "CONF.PUTINH"
	qGetInh     = "CONF.GETINH"
	qBase       = "CONF.BASE"
	qBOQ        = "CONF.BOQ"
	qAlias      = "CONF.ALIAS"
	qAliasBad   = "CONF.ALIAS.BROKEN"
	qAliasDefs  = "CONF.ALIAS.DEFS"
	qFIFO       = "CONF.FIFO"
	qXmit       = "CONF.XMITQ"
	qRemote     = "CONF.REMOTE"
	qRemoteName = "CONF.TARGET"
	remoteQMgr  = "CONFQM2"
	qXmitNamed  = "CONFQM3" // a transmission queue named after a queue manager
	qModel      = "CONF.MODEL"
	qDurModel   = "CONF.DUR.MODEL"
	qNDurModel  = "CONF.NDUR.MODEL"
	topicObject = "CONF.TOPIC"
	topicString = "conformance/poison"
	qStatus     = "CONF.STATUS"
	qMonitored  = "CONF.MON"
	qUnmonitor  = "CONF.NOMON"
	qSecure     = "CONF.SECURE"
)

// clearable are the local queues the suite empties before each test. The
// get-inhibited queue cannot be drained and no test puts to it.
var clearable = []string{
	qDeadQ, qMain, qOther, qFIFO, qSmall, qPutInh, qBase, qBOQ, qXmit, qXmitNamed,
	qStatus, qMonitored, qUnmonitor, qSecure,
}

// SetupMQSC defines every object and authority record the suite uses. The
// embedded backend runs it before the suite; on IBM MQ an administrator runs it
// once with runmqsc (print it with `go test ./backend/conformance -run
// TestPrintSetup -v`). All names start with CONF (the transmission queue CONFQM3
// and the queue manager alias CONFQM4 too), so it does not touch an application's objects
// except for the queue manager's DEADQ, which the suite checks.
const SetupMQSC = `* poisonwatch conformance suite: objects and authorities.
* Run once as an MQ administrator:  runmqsc QMNAME < conformance.mqsc

DEFINE QLOCAL('CONF.DEADQ') DESCR('poisonwatch conformance: dead-letter queue') REPLACE
ALTER QMGR DEADQ('CONF.DEADQ')

* General-purpose queues. CONF.Q2 takes its priority and persistence from the
* queue definition when a message says "as queue definition".
DEFINE QLOCAL('CONF.Q1') DESCR('poisonwatch conformance: general queue') +
       MAXDEPTH(5000) MAXMSGL(4194304) DEFPRTY(0) DEFPSIST(NO) REPLACE
DEFINE QLOCAL('CONF.Q2') DESCR('poisonwatch conformance: second queue') +
       DEFPRTY(7) DEFPSIST(YES) REPLACE
DEFINE QLOCAL('CONF.FIFO') MSGDLVSQ(FIFO) REPLACE

* Limits and inhibited operations.
DEFINE QLOCAL('CONF.SMALL') MAXDEPTH(2) MAXMSGL(100) REPLACE
DEFINE QLOCAL('CONF.PUTINH') PUT(DISABLED) REPLACE
DEFINE QLOCAL('CONF.GETINH') GET(DISABLED) REPLACE

* An input queue with poison handling, its backout queue, and aliases.
DEFINE QLOCAL('CONF.BOQ') DESCR('poisonwatch conformance: backout queue') REPLACE
DEFINE QLOCAL('CONF.BASE') BOTHRESH(3) BOQNAME('CONF.BOQ') HARDENBO REPLACE
DEFINE QALIAS('CONF.ALIAS') TARGET('CONF.BASE') REPLACE
DEFINE QALIAS('CONF.ALIAS.BROKEN') TARGET('CONF.NO.SUCH.BASE') REPLACE
DEFINE QALIAS('CONF.ALIAS.DEFS') TARGET('CONF.Q1') DEFPRTY(6) DEFPSIST(YES) REPLACE

* Remote queuing: a remote queue definition, and a transmission queue named
* after a queue manager so that ObjectQMgrName CONFQM3 resolves to it.
DEFINE QLOCAL('CONF.XMITQ') USAGE(XMITQ) REPLACE
DEFINE QREMOTE('CONF.REMOTE') RNAME('CONF.TARGET') RQMNAME('CONFQM2') +
       XMITQ('CONF.XMITQ') REPLACE
DEFINE QLOCAL('CONFQM3') USAGE(XMITQ) REPLACE
* A queue manager alias: RNAME blank. Its DEFPRTY/DEFPSIST differ from the
* transmission queue's, since the first definition in the path decides.
DEFINE QREMOTE('CONFQM4') RNAME(' ') RQMNAME('CONFQM2') XMITQ('CONF.XMITQ') +
       DEFPRTY(4) DEFPSIST(YES) REPLACE

* Dynamic queues and publish/subscribe.
DEFINE QMODEL('CONF.MODEL') DEFTYPE(TEMPDYN) BOTHRESH(5) BOQNAME('CONF.BOQ') REPLACE
DEFINE QMODEL('CONF.DUR.MODEL') DEFTYPE(PERMDYN) BOTHRESH(4) BOQNAME('CONF.BOQ') REPLACE
DEFINE QMODEL('CONF.NDUR.MODEL') DEFTYPE(TEMPDYN) BOTHRESH(2) BOQNAME('CONF.BOQ') REPLACE
DEFINE TOPIC('CONF.TOPIC') TOPICSTR('conformance/poison') +
       MDURMDL('CONF.DUR.MODEL') MNDURMDL('CONF.NDUR.MODEL') REPLACE

* Queue status and monitoring.
DEFINE QLOCAL('CONF.STATUS') MONQ(OFF) REPLACE
DEFINE QLOCAL('CONF.MON') MONQ(MEDIUM) REPLACE
DEFINE QLOCAL('CONF.NOMON') MONQ(OFF) REPLACE
DEFINE QLOCAL('CONF.SECURE') REPLACE

* Authorities. The most specific profile wins (CONF.SECURE over CONF.**).
SET AUTHREC PRINCIPAL('confapp') OBJTYPE(QMGR) AUTHADD(CONNECT,INQ)
SET AUTHREC PROFILE('CONF.**') PRINCIPAL('confapp') OBJTYPE(QUEUE) +
    AUTHADD(BROWSE,GET,INQ,PUT,DSP)
SET AUTHREC PROFILE('CONF.SECURE') PRINCIPAL('confapp') OBJTYPE(QUEUE) AUTHADD(INQ)
SET AUTHREC PROFILE('CONF.**') PRINCIPAL('confapp') OBJTYPE(TOPIC) AUTHADD(PUB,SUB)
SET AUTHREC PRINCIPAL('confmover') OBJTYPE(QMGR) AUTHADD(CONNECT,INQ)
SET AUTHREC PROFILE('CONF.**') PRINCIPAL('confmover') OBJTYPE(QUEUE) +
    AUTHADD(BROWSE,GET,INQ,PUT,DSP,PASSID,PASSALL)
`

// maxQNameLen is MQ_Q_NAME_LENGTH.
const maxQNameLen = 48

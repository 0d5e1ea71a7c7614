// Package conformance is the conformance suite of the mqwatch port: it checks,
// through the port only, every behaviour of an IBM MQ queue manager that
// poisonwatch relies on — message order, MsgIds, message context and its
// authority, units of work and BackoutCount, limits and reason codes, waits,
// browse cursors and marks, matching, expiry, name resolution (aliases,
// remote definitions, model queues, subscriptions), queue status, handles,
// discovery and broken connections. The embedded queue manager and the IBM MQ
// backend are held to the same standard by calling Run.
//
// The suite lives in ordinary (non-test) files so that any backend's tests can
// call Run. A backend provides Backend; the optional capabilities
// ConnectionBreaker and Clock enable the tests that need them, which are
// skipped with the reason printed otherwise. Nothing else is ever skipped: a
// behaviour a backend lacks fails.
//
// # Running against the embedded queue manager
//
//	go test ./backend/conformance -run TestEmbedded
//
// # Running against IBM MQ
//
// Build with the ibmmq tag on a machine with the IBM MQ client (see
// backend/ibmmq). An administrator first defines the suite's objects and
// authority records once:
//
//	go test ./backend/conformance -run TestPrintSetup -v   # prints SetupMQSC
//	runmqsc QM1 < conformance.mqsc
//
// The principals UserAdmin (mqm), UserApp (confapp), UserMover (confmover)
// and UserNone (confnone) must exist as users the queue manager authenticates.
// The suite changes the queue manager's DEADQ to CONF.DEADQ, leaves a durable
// subscription CONF.SUB.DURABLE behind (the port cannot remove one), and
// assumes that DEFXMITQ is blank, that no cluster knows a queue manager named
// CONFQM9, and that the queue manager's MONQ is not NONE (which would switch
// CONF.MON's monitoring off). Then, for example over a client channel:
//
//	POISONWATCH_TEST_QMGR=QM1 MQSERVER='CONF.SVRCONN/TCP/mqhost(1414)' \
//	POISONWATCH_TEST_PASSWORD_MQM=... POISONWATCH_TEST_PASSWORD_CONFAPP=... \
//	POISONWATCH_TEST_PASSWORD_CONFMOVER=... POISONWATCH_TEST_PASSWORD_CONFNONE=... \
//	go test -tags ibmmq ./backend/conformance -run TestIBMMQ -v
//
// Environment of the IBM MQ entry (ibmmq_test.go):
//   - POISONWATCH_TEST_QMGR (required): the queue manager's name. Without it
//     TestIBMMQ is skipped with the reason printed.
//   - POISONWATCH_TEST_PASSWORD_<USER>, the principal's name upper-cased
//     (POISONWATCH_TEST_PASSWORD_CONFAPP ...): that principal connects as
//     itself with this password (MQCSP). A principal without one connects
//     with the process's identity, which is right only in local bindings run
//     by that user or on a channel that maps identities; MQ_USER and
//     MQ_PASSWORD are ignored.
//   - How to reach the queue manager is read by the IBM MQ backend as in
//     production: MQSERVER, MQCCDTURL, MQCHLLIB/MQCHLTAB, or
//     POISONWATCH_MQ_CHANNEL with POISONWATCH_MQ_CONNNAME (TLS:
//     POISONWATCH_MQ_CIPHER, POISONWATCH_MQ_KEYR, POISONWATCH_MQ_CERTLABEL,
//     MQSSLKEYR); with none of them, local bindings on the MQ host.
//     POISONWATCH_MQ_TZ gives the zone of the queue manager's status times.
//
// The clock and connection-breaking capabilities do not exist for a real
// queue manager, so the tests needing them are skipped there.
package conformance

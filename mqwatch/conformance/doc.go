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
//	go test ./mqwatch/conformance -run TestEmbedded
//
// # Running against IBM MQ
//
// Build with the ibmmq tag on a machine with the IBM MQ client (see
// mqwatch/ibmmq). An administrator first defines the suite's objects and
// authority records once:
//
//	go test ./mqwatch/conformance -run TestPrintSetup -v   # prints SetupMQSC
//	runmqsc QM1 < conformance.mqsc
//
// The principals UserAdmin (mqm), UserApp (confapp), UserMover (confmover)
// and UserNone (confnone) must exist as users the queue manager authenticates.
// The suite changes the queue manager's DEADQ to CONF.DEADQ, leaves a durable
// subscription CONF.SUB.DURABLE behind (the port cannot remove one), and
// assumes DEFXMITQ is blank. Then:
//
//	POISONWATCH_TEST_QMGR=QM1 MQSERVER='CONF.SVRCONN/TCP/mqhost(1414)' \
//	POISONWATCH_TEST_PASSWORD_MQM=... POISONWATCH_TEST_PASSWORD_CONFAPP=... \
//	POISONWATCH_TEST_PASSWORD_CONFMOVER=... POISONWATCH_TEST_PASSWORD_CONFNONE=... \
//	go test -tags ibmmq ./mqwatch/conformance -run TestIBMMQ -v
//
// Environment variables of the IBM MQ entry:
//   - POISONWATCH_TEST_QMGR (required): the queue manager name; without it
//     the test is skipped with the reason printed.
//   - MQSERVER, or MQCCDTURL / MQCHLLIB+MQCHLTAB: the client channel, read by
//     the IBM MQ client library; with none of them the backend connects in
//     bindings mode on the MQ host.
//   - POISONWATCH_TEST_PASSWORD_<USER> (user name upper-cased): the password
//     the suite presents for each principal; a principal without one connects
//     with no password (bindings mode, or a channel that maps identities).
package conformance

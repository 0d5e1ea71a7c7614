// Package embedded is the default poisonwatch backend: an in-process model of an
// IBM MQ queue manager, faithful enough that the poison engine, the watchers and
// the UI behave on it as they do on IBM MQ.
//
// It models local, alias, remote and model queues with their attributes (read
// from MQSC scripts with RunMQSC), the dead-letter queue, topics and managed
// subscriptions, units of work per connection with BackoutCount incremented on
// backout, browse cursors and browse marks, expiry, authority records (2035),
// queue and handle status, transmission queues and in-process channels between
// linked queue managers that dead-letter undeliverable messages with an MQDLH,
// fault injection and call accounting. Failures are *mqwatch.Error values with
// IBM's reason codes.
//
// Where the port leaves room, the choices are these:
//   - A truncated message accepted by a bounded browse, or by a get with
//     AcceptTruncated (MQRC_TRUNCATED_MSG_ACCEPTED, a warning on IBM MQ), is
//     not an error: Message.Truncated reports it.
//   - A call whose context ends while it waits (or while injected latency
//     delays it) returns an error wrapping the context's error, not an MQ
//     reason.
//   - As on IBM MQ with MQCNO_HANDLE_SHARE_NO_BLOCK, a second call on a busy
//     connection, Close included, fails with MQRC_CALL_IN_PROGRESS (2219):
//     cancel a waiting get before closing its connection.
//
// Differences from IBM MQ a caller could notice: nothing is persisted (a
// QMgr lives as long as the process); publications carry no MQRFH2 or
// message properties; reports (COA, COD, expiry, exception) are not
// generated; durable subscriptions cannot be deleted (the port has no
// unsubscribe and DELETE SUB is not modelled); connections report a fake,
// stable process id each, as they all live in this process.
package embedded

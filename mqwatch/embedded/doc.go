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
// fault injection and call accounting. Failures carry IBM's reason codes.
//
// Differences from IBM MQ that a caller could notice are listed where they
// arise: nothing is persisted (a QMgr lives as long as the process), message
// properties and MQRFH2 folders are not generated on publications, and
// connections report a fake process id.
package embedded

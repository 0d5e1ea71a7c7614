// Package mqwatch is the port through which all of poisonwatch talks to a queue
// manager, and the watchers that poll it. Nothing above this package knows which
// backend (the embedded queue manager or IBM MQ) it runs on.
//
// The port mirrors the MQI closely (connection, object handles, browse cursors,
// syncpoint, context options) because the guarantees the tool makes — act on
// exactly the message the operator saw, never lose or duplicate one — are only
// as good as its fidelity to what a real queue manager does.
package mqwatch

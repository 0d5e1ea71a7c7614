// Package pcf is the IBM MQ backend's conversation with a queue manager's
// command server, kept free of the MQ client library so that all of it is
// tested on every machine: the request descriptor (non-persistent,
// MQRO_PASS_DISCARD_AND_EXPIRY|MQRO_DISCARD_MSG), encoding, waits in slices
// that honour cancellation, reading replies in the byte order and CCSID they
// arrive in, aggregating multi-message answers with per-object failures
// (MQCFC_LAST, z/OS XR messages and summaries), and mapping DISPLAY QUEUE,
// DISPLAY QSTATUS, DISPLAY CONN and DISPLAY QMGR answers to the port's types.
//
// The only part that differs between backends is the Transport: MQPUT and
// MQGET through mq-golang in package ibmmq (build tag ibmmq), or
// PortTransport over any mqwatch.Conn. With the embedded queue manager's
// command server, Connector runs the whole path end to end. The server side
// (ParseCommand, EncodeAnswer and the *Params builders) answers in IBM's
// documented layouts.
package pcf

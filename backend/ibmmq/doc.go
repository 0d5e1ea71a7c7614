// Package ibmmq is the IBM MQ backend of the mqwatch port, built on
// github.com/ibm-messaging/mq-golang/v5 (v5.7.1) behind the build tag ibmmq,
// because mq-golang needs IBM's MQ client library and headers to compile.
//
// Without the tag the package still exists and holds the parts of the backend
// that need no MQ library, so they are tested on every machine: connection
// settings (MQSERVER, CCDT, TLS and credentials), the MQMD conversion between
// mq-golang's trimmed strings and mqfmt's raw fields, the MQI option words
// built from the port's options, and the bookkeeping of connections held
// after a failed MQBACK. The PCF conversation is package pcf; this package
// gives it a Transport of two MQI calls. Its tests also type-check every
// ibmmq-tagged file (pcf's constant check included) against the real
// mq-golang source in the module cache (see typecheck_test.go), which is how
// CI proves the backend compiles on a machine without the SDK.
//
// The tagged files are thin: every decision they make is in a helper here.
package ibmmq

// Package actions is poisonwatch's poison engine: the routing rules of
// docs/poison-rules.md (R1–R9) as pure functions that say what a consumer will do
// with a message and why, the header transforms a move to a backout queue or
// to the dead-letter queue applies (R5, R6), a lint of the queue manager's
// configuration (R1b, R2c, R8, R9a) and the fixes it proposes as PCF changes
// in order (R8e, R10h: FixPlan, ParkPlan), and whether a dead letter put back
// would come back (R10f: ComesBack).
//
// The engine explains as much as it decides: every Decision carries lines that
// cite the rule they apply, and the fallbacks a put failure would trigger, so
// that what the dashboard predicts can be checked against IBM's documentation
// and against what the demo consumers (which use the same functions) do.
//
// Routing, transforms, lint and fix planning do no I/O. Consumer is the
// exception: it gets messages over a mqwatch.Conn as each consumer style does
// and handles poison with those same functions, so the demo workload does
// what the dashboard predicts. The operator's side of R10 (requeue, move,
// replay, discard, export, import, edit, applying a fix) is package
// actions/ops, which imports this one; this package depends only on mqwatch,
// codec/mqfmt and mqwatch/pcf.
package actions

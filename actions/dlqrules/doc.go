// Package dlqrules reads, previews, runs and writes rules tables of IBM MQ's
// dead-letter queue handler (runmqdlq), as IBM documents them: control data
// (INPUTQ, INPUTQM, RETRYINT, WAIT), then rules of pattern keywords matched
// against each message's MQMD and MQDLH and an action (DISCARD, IGNORE,
// RETRY, FWD).
//
// Parse refuses a table with any error, as runmqdlq does, and names the line
// and column of each. Table.Match finds the rule a message meets (the first
// whose pattern matches); Rule.Resolve turns its action into what the actions
// engine does: RETRY and FWD with HEADER(NO) are requeues (the MQDLH is
// removed), FWD with HEADER(YES) a move, DISCARD a discard archived first.
// Preview says what a table would do to the messages on a queue now; Run
// does it through actions.Engine, so every message is audited and batched
// exactly as the operator commands do; Generate writes a table from groups.
package dlqrules

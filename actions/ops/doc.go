// Package ops runs the operator's operations of docs/poison-rules.md R10 on
// messages: requeue, move, replay, discard, export, import and edit (Engine
// with an OpRequest), applying a fix or a GET/PUT inhibit (Engine.ApplyFix,
// Engine.SetInhibit), and searching message bodies (Engine.SearchBodies).
//
// An operation acts on exactly the messages the operator saw: Plan (a dry
// run) says per message what would happen and why, Run does it in units of
// work that verify MsgId, CorrelId and put time before they commit, archives
// what it removes first, and writes an audit line per message ahead of its
// commit. Each message's fate is data (OpItem.Kind and Detail); its sentence
// is rendered in one place (OpItem.Text), which the command line, the
// dashboard, the war room and the audit log print.
//
// Where a message goes and whether it would come back are asked of package
// actions (QueueIndex, the header transforms, ComesBack), so the plan
// predicts with the same rules the consumers follow. The package depends on
// actions, mqwatch and its subpackages, and golang.org/x/time/rate.
package ops

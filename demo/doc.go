// Package demo runs poison-message incidents on embedded queue managers: the
// workload behind `poisonwatch sim` and the live dashboard's demo.
//
// A scenario is a TOML file plus MQSC scripts. The MQSC defines the objects
// (input queues, backout queues, the dead-letter queue, aliases, topics,
// transmission queues); the TOML names the queue managers and the links
// between them, and the applications: producers with rates, payload kinds,
// report options and a poison fraction, and consumers of every style the
// poison engine knows (sync-transacted, sync-nontransacted, async, asf,
// delivery-count, mqi) with a processing time and a failure predicate.
//
// Consumers are actions.Consumer: the demo never handles poison itself, so
// what happens on the queues is what the dashboard's route predictions say
// will happen. The demo only decides whether an application's processing
// fails.
//
// Every producer and consumer is an actor on one scheduler goroutine. In a
// simulation the scheduler runs on a virtual clock as fast as the CPU allows
// and, given a seed, always makes the same decisions in the same order; the
// live demo first simulates a stretch of history (warmup) the same way, then
// follows the wall clock at the scenario's gentle rates.
package demo

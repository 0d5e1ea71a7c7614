package actions

// IBM MQ's resource adapter in WebSphere Liberty (MQ 9.2, Liberty 18.0.0.4
// and later) pauses an MDB after maxSequentialDeliveryFailures + 1
// sequential delivery failures: an exception from onMessage, a JMSException
// around the delivery, or the transaction rolled back. The default, -1,
// never pauses; 0 pauses on the first failure. IBM: "IBM MQ message-driven
// bean pause in WebSphere Liberty". The resource adapter moves poison to the
// BOQ when it meets a message whose BackoutCount has reached BOTHRESH, at
// the next delivery: a pause that comes first (maxSequentialDeliveryFailures
// + 1 <= BOTHRESH) leaves the message on the input queue and stops the
// queue's consumption until the endpoint is resumed (R6i).

// mdbPause applies R6i: the consumer's sequential failures when known, else
// this message's BackoutCount (its rollbacks), have reached PauseAfter.
func mdbPause(in *RouteInput, count int32) (Decision, bool) {
	n := in.Consumer.PauseAfter
	if in.Consumer.Style != ASF || n <= 0 {
		return Decision{}, false
	}
	failures := count
	if f := in.Consumer.Failures; f != nil {
		failures = *f
	}
	if failures < n {
		return Decision{}, false
	}
	q := in.Queue.Base
	why := line("R6i", "%d sequential delivery failures >= maxSequentialDeliveryFailures %d + 1: the resource adapter pauses the MDB; the message stays on %s with BackoutCount %d and a backlog builds until the endpoint is resumed",
		failures, n-1, q, count)
	d := Decision{Fate: PauseConsumer, Queue: q, Why: []Line{why}}
	if t := in.Queue.BackoutThresh; t > 0 && count >= t {
		d.Why = append(d.Why, line("R6i", "on resume it meets BackoutCount %d >= BOTHRESH %d and moves the message as R2 says", count, t))
	}
	return d, true
}

// mdbPauses reports whether the consumer, an asf MDB, has just failed its
// PauseAfter-th delivery in a row (R6i).
func (c *Consumer) mdbPauses() bool {
	n := c.opts.PauseAfter
	return c.opts.Style == ASF && n > 0 && c.failures >= n
}

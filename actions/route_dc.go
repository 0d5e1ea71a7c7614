package actions

// decideDeliveryCount applies R9: the application, not the messaging client,
// detects poison from JMSXDeliveryCount (BackoutCount + 1), which Eclipse
// Amlen caps at 64; an MDB with maxDeliveryFailures pauses after that many
// failures: the consumer's count of consecutive failures when known, else
// this message's rollbacks.
func decideDeliveryCount(in *RouteInput, count int32, w *[]Line) Decision {
	p := in.Consumer.Policy
	q := in.Queue.Base
	dc := count + 1
	if dc > AmlenMaxDeliveryCount {
		dc = AmlenMaxDeliveryCount
	}
	if p.Threshold > AmlenMaxDeliveryCount {
		warn(w, line("R9a", "delivery-count threshold %d > %d: JMSXDeliveryCount is capped at %d, the check never fires", p.Threshold, AmlenMaxDeliveryCount, AmlenMaxDeliveryCount))
	}
	failures := count
	if f := in.Consumer.Failures; f != nil {
		failures = *f
	}
	if p.MaxDeliveryFailures > 0 && failures >= p.MaxDeliveryFailures {
		return Decision{Fate: PauseConsumer, Queue: q, Why: []Line{line("R9c",
			"%d failures >= maxDeliveryFailures %d: the MDB pauses; a backlog builds on %s until it is restarted", failures, p.MaxDeliveryFailures, q)}}
	}
	fires := p.Threshold > 0 && p.Threshold <= AmlenMaxDeliveryCount
	if fires && dc >= p.Threshold {
		return deliveryCountPoison(in, dc)
	}
	if count == 0 {
		return Decision{Fate: Deliver, Why: []Line{line("R9", "JMSXDeliveryCount 1: deliver")}}
	}
	if !fires && p.MaxDeliveryFailures > 0 {
		return Decision{Fate: Deliver, Why: []Line{line("R9c", "%d failures < maxDeliveryFailures %d: deliver; the MDB pauses if it keeps failing", failures, p.MaxDeliveryFailures)}}
	}
	if !fires {
		why := line("R9a", "the application sets no usable delivery-count threshold (%d): a message it rolls back is redelivered forever", p.Threshold)
		return Decision{Fate: LoopForever, Queue: q, Why: []Line{why}}
	}
	return Decision{Fate: Deliver, Why: []Line{line("R9", "JMSXDeliveryCount %d < threshold %d: deliver", dc, p.Threshold)}}
}

// deliveryCountPoison applies R9b: the application's own choice.
func deliveryCountPoison(in *RouteInput, dc int32) Decision {
	p := in.Consumer.Policy
	q := in.Queue.Base
	why := []Line{line("R9a", "JMSXDeliveryCount %d >= threshold %d: the application treats it as poison", dc, p.Threshold)}
	switch p.OnPoison {
	case PoisonDiscard:
		why = append(why, line("R9b", "the application discards it: the message is lost"))
		return Decision{Fate: Discard, Why: why}
	case PoisonMove:
		why = append(why, line("R9b", "the application moves it to %s", orNone(p.SpecialQueue)))
		d := Decision{Fate: MoveToQueue, Queue: p.SpecialQueue, Why: why}
		if p.SpecialQueue == "" {
			d.Fails, d.FailsWhy = unknownObject(), "no special queue is configured"
		} else {
			d.Fails, d.FailsWhy = predictPut(p.SpecialQueue, in.facts(p.SpecialQueue), in.Message.Length, in.QMgr.MaxMsgLen)
		}
		back := Decision{Fate: ReturnToInput, Queue: q, Why: []Line{line("R9b", "the move's transaction rolls back: the message returns to %s", q)}}
		d.OnFailure = &back
		return d
	}
	why = append(why, line("R9b", "the application rolls it back to %s: nothing is lost, it is redelivered", q))
	return Decision{Fate: ReturnToInput, Queue: q, Why: why}
}

package demo

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
)

// Minimum durations. Below them a simulation would spin: a consumer polling
// an empty queue every nanosecond, or a burst every nanosecond, takes
// minutes of CPU for a second of simulated time. Zero keeps the default
// (or, for resume_after, means never); negative durations are errors.
const (
	MinPoll        = 10 * time.Millisecond  // scenario poll and consumer poll
	MinBurstEvery  = 100 * time.Millisecond // burst.every
	MinProcess     = time.Millisecond       // consumer process
	MinResumeAfter = 100 * time.Millisecond // consumer resume_after
	maxTextLen     = 64                     // scenario name
)

// checkDuration refuses a negative duration, and a positive one under min.
func checkDuration(what string, d, min time.Duration) error {
	switch {
	case d < 0:
		return fmt.Errorf("%s %s: negative", what, d)
	case d > 0 && d < min:
		return fmt.Errorf("%s %s: below the minimum of %s", what, d, min)
	}
	return nil
}

// checkScenarioDurations checks the scenario-wide durations before defaults
// replace zero values.
func (s *Scenario) checkScenarioDurations() []error {
	var errs []error
	for _, e := range []error{checkDuration("duration", s.Duration, 0), checkDuration("warmup", s.Warmup, 0),
		checkDuration("poll", s.Poll, MinPoll)} {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if err := checkPrintable("scenario name", s.Name, maxTextLen, false); err != nil {
		errs = append(errs, err)
	}
	if err := checkPrintable("description", s.Description, 1<<16, true); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// checkConsumerDurations checks a consumer's durations before defaults.
func checkConsumerDurations(c *ConsumerSpec) error {
	return errors.Join(checkDuration("poll", c.Poll, MinPoll), checkDuration("process", c.Process, MinProcess),
		checkDuration("resume_after", c.ResumeAfter, MinResumeAfter), checkDuration("start", c.Start, 0))
}

// checkProducerFields checks what a producer writes into its messages beyond
// its name and queue: reply_to, the dead-letter header, and the burst period.
func checkProducerFields(p *ProducerSpec) error {
	var errs []error
	if p.ReplyTo != "" {
		errs = append(errs, checkName("reply_to queue", p.ReplyTo))
	}
	if p.ReplyToQMgr != "" {
		errs = append(errs, checkName("reply_to_qmgr queue manager", p.ReplyToQMgr))
	}
	if dl := p.DeadLetter; dl != nil {
		if dl.DestQ != "" {
			errs = append(errs, checkName("dead_letter dest_q", dl.DestQ))
		}
		if dl.DestQMgr != "" {
			errs = append(errs, checkName("dead_letter dest_qmgr", dl.DestQMgr))
		}
		if dl.PutAppl != "" {
			errs = append(errs, checkPrintable("dead_letter put_appl", dl.PutAppl, maxNameLen, false))
		}
	}
	errs = append(errs, checkDuration("burst.every", p.Burst.Every, MinBurstEvery))
	return errors.Join(errs...)
}

// checkPrintable refuses text that could drive a terminal when printed:
// control characters, bidi overrides and other non-graphic runes (newlines
// and tabs only where multiline allows them), or text longer than max bytes.
func checkPrintable(what, s string, max int, multiline bool) error {
	if len(s) > max {
		return fmt.Errorf("%s: %d bytes, limit %d", what, len(s), max)
	}
	bad := strings.IndexFunc(s, func(r rune) bool {
		return !(unicode.IsGraphic(r) || multiline && (r == '\n' || r == '\t')) || r == unicode.ReplacementChar
	})
	if bad >= 0 {
		return fmt.Errorf("%s %q: control or formatting character at byte %d", what, s, bad)
	}
	return nil
}

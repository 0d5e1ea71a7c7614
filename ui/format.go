package ui

import (
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/model"
)

// human formats a count with thousands separators: 29,000.
func human(n int64) string { return words.Commas(n) }

// age formats a duration the way an operator reads it at a glance; the
// model's alerts use the same helper.
func age(d time.Duration) string { return model.Span(d) }

// rate formats a per-minute change with an arrow.
func rate(r float64, ok bool) string {
	if !ok || math.Abs(r) < 0.5 {
		return "·"
	}
	if r > 0 {
		return fmt.Sprintf("↑%s/m", compact(r))
	}
	return fmt.Sprintf("↓%s/m", compact(-r))
}

func compact(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.0fk", v/1e3)
	case v >= 1e3:
		return fmt.Sprintf("%.1fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// bar draws a capacity bar of width w for fraction f.
func bar(f float64, w int) string {
	if w <= 0 {
		return ""
	}
	f = math.Max(0, math.Min(1, f))
	n := int(math.Round(f * float64(w)))
	if f > 0 && n == 0 {
		n = 1
	}
	return strings.Repeat("━", n) + strings.Repeat("╌", w-n)
}

var sparkRunes = []rune("▁▂▃▄▅▆▇█")

// sparkFill draws the last w depths against the queue's MAXDEPTH: a full
// queue is a row of █ and an empty one of ▁, whatever they did before, so
// two queues' lines compare. Without a MAXDEPTH it falls back to sparkRate.
func sparkFill(depths []float64, maxDepth float64, w int) string {
	if maxDepth <= 0 {
		return sparkRate(depths, w)
	}
	return spark(depths, maxDepth, w)
}

// sparkRate draws the last w values zero-based against their largest, which
// it prints after the line ("▁▃█ max 12"): a flat line means the same value, and
// the reader sees what the top stands for. The line takes what the figure
// leaves of w.
func sparkRate(vals []float64, w int) string {
	if len(vals) > w {
		vals = vals[len(vals)-w:]
	}
	hi := 0.0
	for _, v := range vals {
		hi = math.Max(hi, v)
	}
	label := " max " + compact(hi)
	sw := w - len(label)
	if sw < 4 {
		return spark(vals, hi, w)
	}
	// The figure names the top of what is drawn: a value older than the
	// line's width would otherwise show as "max 3" over a flat floor.
	drawn := vals[max(len(vals)-sw, 0):]
	hi = 0
	for _, v := range drawn {
		hi = math.Max(hi, v)
	}
	short := " max " + compact(hi)
	return strings.Repeat(" ", len(label)-len(short)) + spark(drawn, hi, sw) + short
}

// spark draws the last w values on a zero-based scale whose top is hi:
// values at or above hi are █, zero is ▁, and anything above zero is at
// least ▂ so a trickle is not drawn as nothing.
func spark(vals []float64, hi float64, w int) string {
	if len(vals) > w {
		vals = vals[len(vals)-w:]
	}
	var b strings.Builder
	for i := 0; i < w-len(vals); i++ {
		b.WriteRune(' ')
	}
	top := len(sparkRunes) - 1
	for _, v := range vals {
		i := 0
		if hi > 0 && v > 0 {
			i = min(max(int(math.Ceil(v/hi*float64(top))), 1), top)
		}
		b.WriteRune(sparkRunes[i])
	}
	return b.String()
}

// msgIDHex shows a MsgId as amqsbcg does: 48 hex digits.
func msgIDHex(id [24]byte) string { return strings.ToUpper(hex.EncodeToString(id[:])) }

// fitID shows as much of a MsgId as w cells hold: all 48 hex digits, or its
// distinguishing tail after "…", never a cut that does not say so (y copies
// the whole id).
func fitID(id [24]byte, w int) string {
	s := msgIDHex(id)
	if len(s) <= w {
		return s
	}
	return "…" + s[len(s)-max(w-1, 1):]
}

// shortID shows the distinguishing tail of an IBM MsgId (the first 16 bytes
// are "AMQ " and the queue manager name, the same for every message).
func shortID(id [24]byte) string { return strings.ToUpper(hex.EncodeToString(id[16:])) }

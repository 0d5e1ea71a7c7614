package ui

import (
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
)

// human formats a count with thousands separators: 29,000.
func human(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + human(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

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

// sparkline draws the last w values scaled to their own range.
func sparkline(vals []float64, w int) string {
	if len(vals) > w {
		vals = vals[len(vals)-w:]
	}
	if len(vals) == 0 {
		return strings.Repeat(" ", w)
	}
	lo, hi := vals[0], vals[0]
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	var b strings.Builder
	for i := 0; i < w-len(vals); i++ {
		b.WriteRune(' ')
	}
	for _, v := range vals {
		i := 0
		if hi > lo {
			i = int((v - lo) / (hi - lo) * float64(len(sparkRunes)-1))
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

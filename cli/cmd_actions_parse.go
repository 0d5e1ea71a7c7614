package cli

import (
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// The values of action flags, read as IBM's tools and the dashboard write them.

// listFlag collects a repeatable flag; commas separate values too.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

// defaultExportFile is where export writes without --file: where the
// dashboard proposes, the audit log's directory (the state directory by
// default), named after the queue manager, the queue and the time.
func defaultExportFile(audit, qmgr, queue string, now time.Time) string {
	return filepath.Join(exportDir(audit), ops.ExportName(qmgr, queue, now))
}

// parseMsgIDs reads MsgIds as dmpmqmsg and the dashboard show them: 48
// hexadecimal digits.
func parseMsgIDs(ss []string) ([][24]byte, error) {
	out := make([][24]byte, 0, len(ss))
	for _, s := range ss {
		b, err := hex.DecodeString(strings.TrimPrefix(strings.ToLower(s), "0x"))
		if err != nil || len(b) != 24 {
			return nil, fmt.Errorf("--msgid %q: want 48 hexadecimal digits (24 bytes)", mqfmt.Sanitize(s))
		}
		out = append(out, [24]byte(b))
	}
	return out, nil
}

// parseReason reads a reason code as a number or as IBM's name (MQRC_ or
// MQFB_, the prefix optional, any case).
func parseReason(s string) (int32, error) {
	if s == "" {
		return 0, nil
	}
	if n, err := strconv.ParseInt(s, 10, 32); err == nil && n > 0 {
		return int32(n), nil
	}
	want := strings.ToUpper(s)
	names := reasonsByName()
	for _, n := range []string{want, "MQRC_" + want, "MQFB_" + want} {
		if v, ok := names[n]; ok {
			return v, nil
		}
	}
	return 0, fmt.Errorf("--reason %q: not a reason code number or an MQRC_/MQFB_ name", mqfmt.Sanitize(s))
}

// reasonsByName maps IBM's MQRC_ and MQFB_ names to their codes, built once
// from mqfmt's names of every code a reason field can hold.
var reasonsByName = sync.OnceValue(func() map[string]int32 {
	m := map[string]int32{}
	for v := int32(1); v < 1<<16; v++ {
		if r := mqfmt.Reason(v); r.Known() {
			m[r.String()] = v
		}
	}
	return m
})

// parseAge reads a Go duration, or a whole number of days ("3d").
func parseAge(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(d)
		if err == nil && n >= 0 && n < 100_000 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("--min-age %q: want a duration such as 90s, 15m, 2h or 3d", mqfmt.Sanitize(s))
	}
	return d, nil
}

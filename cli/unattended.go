package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/ibmmq"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// registerUnattended declares --unattended-after: how long dead letters may
// wait on the DEADQ or a BOQ before R8f says they were forgotten, for
// every queue manager; a --qmgrs entry's unattended_after sets its own.
func (o *tuiOpts) registerUnattended(fs *flag.FlagSet) {
	fs.Func("unattended-after", "alert (R8f) when the oldest message of a DEADQ or BOQ has waited longer than this: 36h, 3d, off (default 1d; a --qmgrs entry's unattended_after sets its own)",
		func(s string) error {
			d, err := parseUnattended(s)
			o.unattended = d
			return err
		})
}

// parseUnattended reads a threshold: a Go duration or whole days ("3d");
// "off" or 0 turns R8f off (a negative threshold for the model).
func parseUnattended(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		return -1, nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.Atoi(days); err == nil && n > 0 && n < 100_000 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%q: want a duration such as 12h, 36h or 3d, or off", mqfmt.Sanitize(s))
	}
	return d, nil
}

// unattendedAfter is R8f's threshold per watched queue manager: the
// flag's (0 when not given: the model's day), or the --qmgrs entry's own.
func unattendedAfter(o tuiOpts, qmgrs []qmgrConn) (map[string]time.Duration, error) {
	out := make(map[string]time.Duration, len(qmgrs))
	for _, q := range qmgrs {
		out[q.name] = o.unattended
	}
	if o.qmgrs == "" {
		return out, nil
	}
	data, err := readQMgrsFile(o.qmgrs)
	if err != nil {
		return nil, err
	}
	entries, err := ibmmq.ParseQMgrFile(data, ibmmq.Settings{})
	if err != nil {
		return nil, fmt.Errorf("--qmgrs %s: %w", mqfmt.Sanitize(o.qmgrs), err)
	}
	for _, e := range entries {
		if _, watched := out[e.QMgr]; !watched || e.UnattendedAfter == "" {
			continue
		}
		if out[e.QMgr], err = parseUnattended(e.UnattendedAfter); err != nil {
			return nil, fmt.Errorf("--qmgrs %s: %s: unattended_after %w", mqfmt.Sanitize(o.qmgrs), mqfmt.Sanitize(e.QMgr), err)
		}
	}
	return out, nil
}

package promfleet

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	pmodel "github.com/prometheus/common/model"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// Bounds on what an answer may hold. Label values come from whoever wrote
// the series (an exporter, a relabelling, anyone with remote write), so
// each is cut and made printable before it is kept, and an answer with
// more series than a fleet has is refused rather than held.
var (
	// maxLabel bounds one label value: an MQ name is at most 48
	// characters, an instance a host and port; the exporter cuts its own
	// label values at 128 bytes too.
	maxLabel = 128
	// maxSeries bounds one answer: the largest query returns a few series
	// per queue manager (its alerts), and DefaultMaxRows of them at a
	// dozen alerts each is 120,000.
	maxSeries = 200000
)

// sample is one series of an answer with the labels the fleet reads,
// cleaned.
type sample struct {
	name                string // __name__, when the query keeps it
	instance, job, qmgr string
	queue, role         string
	rule, severity      string
	reason, reasonName  string
	value               float64
}

// key is the row a sample belongs to.
func (s *sample) key() rowKey { return rowKey{s.instance, s.job, s.qmgr} }

// rowKey names one queue manager of the fleet: the exporter's target and
// the queue manager's name.
type rowKey struct{ instance, job, qmgr string }

// samples reads an instant vector, cleaning every label it keeps; NaN and
// infinite values (a division by a zero MAXDEPTH) are left out.
func samples(v pmodel.Value) ([]sample, error) {
	vec, ok := v.(pmodel.Vector)
	if !ok {
		return nil, fmt.Errorf("a %s where an instant vector was asked for", v.Type())
	}
	if len(vec) > maxSeries {
		return nil, fmt.Errorf("%d series, more than the %d a fleet's answer may hold", len(vec), maxSeries)
	}
	out := make([]sample, 0, len(vec))
	for _, s := range vec {
		f := float64(s.Value)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		m := s.Metric
		out = append(out, sample{name: label(m, pmodel.MetricNameLabel), instance: label(m, "instance"), job: label(m, "job"),
			qmgr: label(m, "qmgr"), queue: label(m, "queue"), role: label(m, "role"), rule: label(m, "rule"),
			severity: label(m, "severity"), reason: label(m, "reason"), reasonName: label(m, "reason_name"), value: f})
	}
	return out, nil
}

func label(m pmodel.Metric, name pmodel.LabelName) string { return clean(string(m[name])) }

// clean makes a label value safe to keep and show: valid UTF-8, control
// characters escaped as the screens escape a queue manager's bytes, at
// most maxLabel bytes (cut at a character, marked with "…").
func clean(s string) string {
	if s == "" {
		return ""
	}
	if len(s) > 4*maxLabel {
		s = s[:4*maxLabel] // escaping only grows it: no need to read more
	}
	s = mqfmt.Sanitize(strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) <= maxLabel {
		return s
	}
	return cut(s, maxLabel)
}

// cut shortens s to at most n bytes at a character boundary, with "…".
func cut(s string, n int) string {
	i := n - len("…")
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

package promfleet

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// alertmanager reads an Alertmanager's API v2: the alerts it holds with
// what suppresses them, and its silences (who, why, until when). Two
// requests, whatever the fleet's size.
type alertmanager struct {
	base   *url.URL
	client *http.Client
}

// amAlert is an alert as the Alertmanager holds it: the Prometheus alert
// of a rule over poisonwatch_alert carries its qmgr, rule, queue and
// severity, and the instance and job of the exporter's series.
type amAlert struct {
	Labels map[string]string `json:"labels"`
	Status struct {
		State       string   `json:"state"`
		SilencedBy  []string `json:"silencedBy"`
		InhibitedBy []string `json:"inhibitedBy"`
	} `json:"status"`
}

type amSilence struct {
	ID     string `json:"id"`
	Status struct {
		State string `json:"state"`
	} `json:"status"`
	EndsAt    time.Time `json:"endsAt"`
	CreatedBy string    `json:"createdBy"`
	Comment   string    `json:"comment"`
}

// silences is what the Alertmanager says of the fleet's alerts: the
// suppressed ones, by queue manager, rule and queue.
type silences struct {
	held map[[3]string][]amAlert
	byID map[string]*model.Silence
}

// maxComment bounds a silence's comment as kept: the detail shows a line.
const maxComment = 200

// read asks for the suppressed alerts of queue managers and the silences.
func (a *alertmanager) read(ctx context.Context, _ time.Time) (*silences, error) {
	var alerts []amAlert
	q := url.Values{"active": {"false"}, "silenced": {"true"}, "inhibited": {"true"}, "unprocessed": {"false"},
		"filter": {`qmgr=~".+"`}}
	if err := a.get(ctx, "/api/v2/alerts", q, &alerts); err != nil {
		return nil, err
	}
	var sils []amSilence
	if err := a.get(ctx, "/api/v2/silences", nil, &sils); err != nil {
		return nil, err
	}
	s := &silences{held: map[[3]string][]amAlert{}, byID: map[string]*model.Silence{}}
	for _, x := range sils {
		if x.Status.State == "active" {
			s.byID[x.ID] = &model.Silence{ID: clean(x.ID), By: clean(x.CreatedBy), Comment: clip(cleanText(x.Comment)), Ends: x.EndsAt}
		}
	}
	for _, al := range alerts {
		if len(al.Status.SilencedBy)+len(al.Status.InhibitedBy) == 0 {
			continue
		}
		k := [3]string{clean(al.Labels["qmgr"]), clean(al.Labels["rule"]), clean(al.Labels["queue"])}
		s.held[k] = append(s.held[k], al)
	}
	return s, nil
}

// cleanText is a free text from outside (a silence's comment) made one
// printable line, bounded.
func cleanText(s string) string {
	if len(s) > 4*maxComment {
		s = s[:4*maxComment]
	}
	return mqfmt.Sanitize(s)
}

func (a *alertmanager) get(ctx context.Context, path string, q url.Values, into any) error {
	u := *a.base
	u.Path += path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach the Alertmanager at %s: %s", a.base.Redacted(), clip(mqfmt.Sanitize(unwrapURL(err))))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("the Alertmanager at %s answered %s %s (is it an Alertmanager of API v2?)", a.base.Redacted(), path, clip(mqfmt.Sanitize(resp.Status)))
	}
	if err := json.NewDecoder(resp.Body).Decode(into); err != nil {
		return fmt.Errorf("the Alertmanager at %s answered %s with what is not its API v2: %s", a.base.Redacted(), path, clip(mqfmt.Sanitize(err.Error())))
	}
	return nil
}

func unwrapURL(err error) string {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err.Error()
	}
	return err.Error()
}

// apply marks the fleet's alerts the Alertmanager suppresses: silenced
// (with the silence, when it is active) or inhibited. An Alertmanager
// alert matches a row's alert by queue manager, rule and queue, and by
// instance and severity when it has them (a rule that aggregates keeps
// neither).
func (s *silences) apply(f *model.RemoteFleet) {
	if len(s.held) == 0 {
		return
	}
	for i := range f.Rows {
		r := &f.Rows[i]
		for j := range r.Alerts {
			a := &r.Alerts[j]
			for _, al := range s.held[[3]string{r.QMgr, a.Rule, a.Queue}] {
				if in := clean(al.Labels["instance"]); in != "" && in != r.Instance {
					continue
				}
				if sev := al.Labels["severity"]; sev != "" && severity(sev) != a.Severity {
					continue
				}
				for _, id := range al.Status.SilencedBy {
					if a.Silence == nil {
						a.Silence = s.byID[id]
					}
				}
				if a.Silence == nil && len(al.Status.SilencedBy) > 0 {
					a.Silence = &model.Silence{ID: clean(al.Status.SilencedBy[0])}
				}
				a.Inhibited = a.Inhibited || len(al.Status.InhibitedBy) > 0
			}
		}
		r.Count()
	}
	model.SortRemote(f.Rows)
}

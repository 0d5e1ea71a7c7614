package actions

import (
	"strings"
	"testing"
)

func TestAuthorities(t *testing.T) {
	q := InputQueue{Name: "ORDERS.ALIAS", Base: "ORDERS.IN", BackoutQName: "ORDERS.BO"}
	clus := InputQueue{Name: "PRICES", Base: "PRICES", Cluster: true}
	tests := []struct {
		name   string
		style  Style
		q      InputQueue
		legacy bool
		want   []string // "rule object auths"
	}{
		{name: "R7a_R7b_jms_needs_inquire_on_base_and_put_passall_on_targets", style: Async, q: q,
			want: []string{"R7a ORDERS.IN INQ", "R7b ORDERS.BO PUT,PASSALL", "R7b QM1.DEADQ PUT,PASSALL"}},
		{name: "R7a_current_jms_needs_only_inquire_on_cluster_queue", style: ASF, q: clus,
			want: []string{"R7a PRICES INQ", "R7b QM1.DEADQ PUT,PASSALL"}},
		{name: "R7a_legacy_jms_needs_get_too_on_cluster_queue", style: SyncTransacted, q: clus, legacy: true,
			want: []string{"R7a PRICES INQ,GET", "R7b QM1.DEADQ PUT,PASSALL"}},
		{name: "R7a_legacy_level_changes_nothing_for_a_non_cluster_queue", style: SyncTransacted, q: q, legacy: true,
			want: []string{"R7a ORDERS.IN INQ", "R7b ORDERS.BO PUT,PASSALL", "R7b QM1.DEADQ PUT,PASSALL"}},
		{name: "R7_mqi_consumer_needs_nothing_for_poison_handling", style: MQI, q: q},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reqs := Authorities(tc.style, tc.q, "QM1.DEADQ", tc.legacy)
			var got []string
			for _, r := range reqs {
				got = append(got, r.Rule+" "+r.Object+" "+strings.Join(r.Authorities, ","))
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestExplainNotAuthorized(t *testing.T) {
	reqs := Authorities(Async, InputQueue{Base: "ORDERS.IN", BackoutQName: "ORDERS.BO"}, "QM1.DEADQ", false)
	t.Run("R7b_names_put_and_passall_on_the_BOQ", func(t *testing.T) {
		got := ExplainNotAuthorized(reqs, "ORDERS.BO")
		if len(got) != 1 || got[0].Rule != "R7b" || !strings.Contains(got[0].Text, "PUT+PASSALL on ORDERS.BO") {
			t.Errorf("got %v", got)
		}
	})
	t.Run("R7_unrelated_object_explains_nothing", func(t *testing.T) {
		if got := ExplainNotAuthorized(reqs, "OTHER"); got != nil {
			t.Errorf("got %v", got)
		}
	})
	t.Run("R7a_mqsc_grants_inquire", func(t *testing.T) {
		want := "SET AUTHREC PROFILE(ORDERS.IN) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(INQ)"
		if got := reqs[0].MQSC("app"); got != want {
			t.Errorf("got %q", got)
		}
	})
}

package actions

import (
	"slices"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func testInventory() *QueueIndex {
	queues := []mqwatch.QueueInfo{
		{Name: "ORDERS.IN", Type: mqwatch.QLocal, BackoutThresh: 3, BackoutQName: "ORDERS.BO", MaxDepth: 5000, MaxMsgLen: 4194304, DefPersistent: true},
		{Name: "ORDERS.ALIAS", Type: mqwatch.QAlias, Target: "ORDERS.IN"},
		{Name: "ORDERS.BO", Type: mqwatch.QLocal, MaxDepth: 100, MaxMsgLen: 4194304},
		{Name: "BO.ALIAS", Type: mqwatch.QAlias, Target: "ORDERS.BO", InhibitPut: true},
		{Name: "BROKEN.ALIAS", Type: mqwatch.QAlias, Target: "NOWHERE"},
		{Name: "PRICES", Type: mqwatch.QCluster},
		{Name: "PRICES", Type: mqwatch.QLocal, BackoutThresh: 5, BackoutQName: "PRICES.BO"},
		{Name: "REMOTE.CLUS", Type: mqwatch.QCluster},
		{Name: "REMOTE.DEF", Type: mqwatch.QRemote},
		{Name: DefaultDurableModelQ, Type: mqwatch.QModel, BackoutThresh: 4, BackoutQName: "SUBS.BO"},
		{Name: DefaultNonDurableModelQ, Type: mqwatch.QModel},
		{Name: "SYSTEM.MANAGED.DURABLE.A1", Type: mqwatch.QLocal, BackoutThresh: 2, BackoutQName: "OLD.BO"},
	}
	status := []mqwatch.QueueStatus{{Name: "ORDERS.BO", Depth: 100}, {Name: "ORDERS.IN", Depth: 7}}
	return NewQueueIndex(mqwatch.QMgrInfo{Name: "QM1", DeadQ: "QM1.DEADQ"}, queues, status)
}

func TestResolveInput(t *testing.T) {
	inv := testInventory()
	tests := []struct {
		name    string
		queue   string
		base    string
		thresh  int32
		cluster bool
		path    []string
		wantErr bool
	}{
		{name: "local_queue_is_its_own_base", queue: "ORDERS.IN", base: "ORDERS.IN", thresh: 3},
		{name: "alias_resolves_to_base_local_queue", queue: "ORDERS.ALIAS", base: "ORDERS.IN", thresh: 3,
			path: []string{"alias ORDERS.ALIAS", "base queue ORDERS.IN"}},
		{name: "cluster_queue_uses_its_local_instance", queue: "PRICES", base: "PRICES", thresh: 5, cluster: true,
			path: []string{"local instance of cluster queue PRICES"}},
		{name: "cluster_queue_without_local_instance_is_an_error", queue: "REMOTE.CLUS", wantErr: true},
		{name: "remote_definition_is_an_error", queue: "REMOTE.DEF", wantErr: true},
		{name: "alias_with_missing_base_is_an_error", queue: "BROKEN.ALIAS", wantErr: true},
		{name: "unknown_queue_is_an_error", queue: "NOPE", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := inv.ResolveInput(tc.queue)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("no error, got %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Base != tc.base || got.BackoutThresh != tc.thresh || got.Cluster != tc.cluster || !slices.Equal(got.Path, tc.path) {
				t.Errorf("got %+v", got)
			}
		})
	}
}

func TestResolveSubscription(t *testing.T) {
	inv := testInventory()
	tests := []struct {
		name    string
		sub     Subscription
		base    string
		thresh  int32
		boq     string
		wantErr bool
	}{
		{name: "durable_uses_default_MDURMDL", sub: Subscription{Topic: "prices/#", Durable: true},
			base: "managed queue from SYSTEM.DURABLE.MODEL.QUEUE", thresh: 4, boq: "SUBS.BO"},
		{name: "non_durable_uses_default_MNDURMDL", sub: Subscription{Topic: "prices/#"},
			base: "managed queue from SYSTEM.NDURABLE.MODEL.QUEUE", thresh: 0},
		{name: "existing_managed_queue_keeps_attributes_it_was_created_with",
			sub:  Subscription{Topic: "prices/#", Durable: true, ManagedQ: "SYSTEM.MANAGED.DURABLE.A1"},
			base: "SYSTEM.MANAGED.DURABLE.A1", thresh: 2, boq: "OLD.BO"},
		{name: "named_managed_queue_not_yet_listed_uses_model", sub: Subscription{Topic: "t", Durable: true, ManagedQ: "SYSTEM.MANAGED.DURABLE.B2"},
			base: "SYSTEM.MANAGED.DURABLE.B2", thresh: 4, boq: "SUBS.BO"},
		{name: "model_that_is_not_a_model_queue_is_an_error", sub: Subscription{Topic: "t", ModelQ: "ORDERS.IN"}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := inv.ResolveSubscription(tc.sub)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("no error, got %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Base != tc.base || got.BackoutThresh != tc.thresh || got.BackoutQName != tc.boq {
				t.Errorf("got %+v", got)
			}
		})
	}
}

func TestInventoryFacts(t *testing.T) {
	inv := testInventory()
	tests := []struct {
		name string
		q    string
		want QueueFacts
	}{
		{name: "full_local_queue", q: "ORDERS.BO",
			want: QueueFacts{Known: true, Exists: true, Type: mqwatch.QLocal, Resolved: "ORDERS.BO", Full: true, Depth: 100, MaxDepth: 100, MaxMsgLen: 4194304}},
		{name: "alias_answers_with_base_and_its_own_put_inhibit", q: "BO.ALIAS",
			want: QueueFacts{Known: true, Exists: true, Type: mqwatch.QAlias, Resolved: "ORDERS.BO", PutInhibited: true, Full: true, Depth: 100, MaxDepth: 100, MaxMsgLen: 4194304}},
		{name: "alias_with_missing_base", q: "BROKEN.ALIAS", want: QueueFacts{Known: true, Exists: true, Type: mqwatch.QAlias, BaseMissing: true}},
		{name: "missing_queue_is_known_not_to_exist", q: "NOPE", want: QueueFacts{Known: true}},
		{name: "local_queue_without_status_is_not_full", q: "PRICES",
			want: QueueFacts{Known: true, Exists: true, Type: mqwatch.QLocal, Resolved: "PRICES"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := inv.Facts(tc.q); got != tc.want {
				t.Errorf("Facts(%s) =\n %+v\nwant\n %+v", tc.q, got, tc.want)
			}
		})
	}
}

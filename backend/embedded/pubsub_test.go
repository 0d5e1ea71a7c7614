package embedded

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

const topicScript = `DEFINE TOPIC(DEV.BASE.TOPIC) TOPICSTR('dev/')
DEFINE TOPIC(PRICES) TOPICSTR('prices') MDURMDL(PRICE.DUR.MODEL)
DEFINE QMODEL(PRICE.DUR.MODEL) DEFTYPE(PERMDYN) MAXDEPTH(3)
DEFINE TOPIC(CLOSED) TOPICSTR('closed') PUB(DISABLED) SUB(DISABLED)`

func publish(f *fixture, c mqwatch.Conn, od mqwatch.ObjectDesc, body string) error {
	q, err := c.Open(f.ctx, od, outOnly)
	if err != nil {
		return err
	}
	defer q.Close(f.ctx)
	md := mqfmt.NewMQMD()
	return q.Put(f.ctx, &md, []byte(body), mqwatch.PutOptions{})
}

func TestSubscriptionsUseManagedQueuesFromTheTopicModels(t *testing.T) {
	f := newFixture(t, topicScript)
	c := f.connect("")
	nd, err := c.Subscribe(f.ctx, mqwatch.SubDesc{TopicString: "prices/fruit/apples"})
	if err != nil {
		t.Fatal(err)
	}
	dur, err := c.Subscribe(f.ctx, mqwatch.SubDesc{TopicObject: "PRICES", TopicString: "fruit/#", Durable: true, Name: "FRUIT"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(nd.Name(), "SYSTEM.MANAGED.NDURABLE.") || len(nd.Name()) != len("SYSTEM.MANAGED.NDURABLE.")+16 {
		t.Errorf("non-durable managed queue %q", nd.Name())
	}
	if !strings.HasPrefix(dur.Name(), "SYSTEM.MANAGED.DURABLE.") {
		t.Errorf("durable managed queue %q", dur.Name())
	}
	if got := f.qm.queues[dur.Name()].attrs; got.MaxDepth != 3 || got.DefType != mqwatch.PermanentDynamic {
		t.Errorf("durable managed queue from MDURMDL: %+v", got)
	}
	if got := f.qm.queues[nd.Name()].attrs.DefType; got != mqwatch.TemporaryDynamic {
		t.Errorf("non-durable managed queue DEFTYPE %v, want TEMPDYN from SYSTEM.NDURABLE.MODEL.QUEUE", got)
	}
	if err := publish(f, c, mqwatch.ObjectDesc{Topic: "prices/fruit/apples"}, "apples 3"); err != nil {
		t.Fatal(err)
	}
	if err := publish(f, c, mqwatch.ObjectDesc{Name: "PRICES", Topic: "fruit/pears"}, "pears 2"); err != nil {
		t.Fatal(err)
	}
	if err := publish(f, c, mqwatch.ObjectDesc{Topic: "prices/veg"}, "nobody wants this"); err != nil {
		t.Fatal(err)
	}
	got := func(q mqwatch.Queue) string {
		var out []string
		for {
			m, err := q.Get(f.ctx, mqwatch.GetOptions{})
			if err != nil {
				return strings.Join(out, ",")
			}
			out = append(out, string(m.Data))
		}
	}
	if s := got(nd); s != "apples 3" {
		t.Errorf("non-durable subscriber got %q", s)
	}
	if s := got(dur); s != "apples 3,pears 2" {
		t.Errorf("durable wildcard subscriber got %q", s)
	}
	ndName, durName := nd.Name(), dur.Name()
	_ = nd.Close(f.ctx)
	_ = dur.Close(f.ctx)
	if f.qm.queues[ndName] != nil {
		t.Error("non-durable subscription's managed queue survived its close")
	}
	if err := publish(f, c, mqwatch.ObjectDesc{Topic: "prices/fruit/kiwi"}, "kiwi 1"); err != nil {
		t.Fatal(err)
	}
	resumed, err := c.Subscribe(f.ctx, mqwatch.SubDesc{Name: "FRUIT", Durable: true, Resume: true})
	if err != nil || resumed.Name() != durName {
		t.Fatalf("resume: %v %v", resumed, err)
	}
	if s := got(resumed); s != "kiwi 1" {
		t.Errorf("resumed durable subscription got %q, want what was published while closed", s)
	}
}

func TestSubscribeAndPublishErrors(t *testing.T) {
	f := newFixture(t, topicScript+"\nSET AUTHREC PROFILE('DEV.**') OBJTYPE(TOPIC) PRINCIPAL('app') AUTHADD(SUB)\n"+
		"DEFINE TOPIC(TEAM) TOPICSTR('team')\nSET AUTHREC PROFILE(TEAM) OBJTYPE(TOPIC) PRINCIPAL('app') AUTHADD(SUB)\n"+
		"SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CONNECT)")
	admin := f.connect("")
	if _, err := admin.Subscribe(f.ctx, mqwatch.SubDesc{TopicString: "a", Durable: true, Name: "S1"}); err != nil {
		t.Fatal(err)
	}
	app := f.connect("app")
	tests := []struct {
		name string
		run  func() error
		rc   mqfmt.Reason
	}{
		{"durable subscription needs a name", func() error {
			_, err := admin.Subscribe(f.ctx, mqwatch.SubDesc{TopicString: "a", Durable: true})
			return err
		}, rcSubNameError},
		{"creating an existing subscription fails", func() error {
			_, err := admin.Subscribe(f.ctx, mqwatch.SubDesc{TopicString: "a", Durable: true, Name: "S1"})
			return err
		}, rcSubAlreadyExists},
		{"resuming an unknown subscription fails", func() error {
			_, err := admin.Subscribe(f.ctx, mqwatch.SubDesc{Durable: true, Name: "NOPE", Resume: true})
			return err
		}, rcNoSubscription},
		{"SUB(DISABLED) refuses subscriptions", func() error {
			_, err := admin.Subscribe(f.ctx, mqwatch.SubDesc{TopicString: "closed/x"})
			return err
		}, rcSubInhibited},
		{"PUB(DISABLED) refuses publications", func() error {
			return publish(f, admin, mqwatch.ObjectDesc{Topic: "closed/x"}, "x")
		}, mqfmt.RCPutInhibited},
		{"unknown topic object", func() error {
			return publish(f, admin, mqwatch.ObjectDesc{Name: "NOPE", Topic: "x"}, "x")
		}, mqfmt.RCUnknownObjectName},
		{"sub authority at a node above the topic string is enough", func() error {
			q, err := app.Subscribe(f.ctx, mqwatch.SubDesc{TopicString: "team/a/b"})
			if err == nil {
				_ = q.Close(f.ctx)
			}
			return err
		}, 0},
		{"sub authority on the exact topic string of a topic object", func() error {
			q, err := app.Subscribe(f.ctx, mqwatch.SubDesc{TopicObject: "DEV.BASE.TOPIC"})
			if err == nil {
				_ = q.Close(f.ctx)
			}
			return err
		}, 0},
		{"no pub authority anywhere up the tree", func() error {
			return publish(f, app, mqwatch.ObjectDesc{Topic: "team/a"}, "x")
		}, mqfmt.RCNotAuthorized},
		{"no sub authority outside the granted subtree", func() error {
			_, err := app.Subscribe(f.ctx, mqwatch.SubDesc{TopicString: "prices"})
			return err
		}, mqfmt.RCNotAuthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if tt.rc == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantRC(t, err, tt.rc)
		})
	}
}

func TestTopicMatches(t *testing.T) {
	tests := []struct {
		sub, pub string
		want     bool
	}{
		{"a/b", "a/b", true},
		{"a/b", "a/b/c", false},
		{"a/#", "a", true},
		{"a/#", "a/b/c", true},
		{"a/+/c", "a/b/c", true},
		{"a/+/c", "a/c", false},
		{"#", "x/y", true},
		{"+", "x/y", false},
		{"a/#/z", "a/b/c/z", true},
	}
	for _, tt := range tests {
		if got := TopicMatches(tt.sub, tt.pub); got != tt.want {
			t.Errorf("TopicMatches(%q, %q) = %v, want %v", tt.sub, tt.pub, got, tt.want)
		}
	}
}

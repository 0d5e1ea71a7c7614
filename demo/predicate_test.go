package demo

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// sample builds a message of kind as a producer would.
func sample(t *testing.T, kind PayloadKind, poison bool) *mqwatch.Message {
	t.Helper()
	p := &ProducerSpec{Name: "P", Queue: "ORDERS.IN", Payload: kind, Persistence: mqfmt.PerPersistent, Priority: -1}
	m, err := build(p, "ORD-000001", poison, rand.New(rand.NewPCG(1, 2)), time.Unix(1700000000, 0))
	if err != nil {
		t.Fatal(err)
	}
	return &mqwatch.Message{MD: m.md, Data: m.data, Length: len(m.data)}
}

func TestPredicateFails(t *testing.T) {
	ebcdicPoison := sample(t, PayloadEBCDIC, true)
	jsonPoison, jsonClean := sample(t, PayloadJMSJSON, true), sample(t, PayloadJMSJSON, false)
	bad := sample(t, PayloadBadRFH2, false)
	redelivered := sample(t, PayloadString, false)
	redelivered.MD.BackoutCount = 3
	tests := []struct {
		name string
		pred string
		m    *mqwatch.Message
		want bool
	}{
		{"empty_never_fails", "", jsonPoison, false},
		{"always", "always", jsonClean, true},
		{"never", "NEVER", jsonPoison, false},
		{"body_contains_in_a_JMS_body", "body contains POISON", jsonPoison, true},
		{"body_contains_misses_a_clean_body", "body contains POISON", jsonClean, false},
		{"body_contains_reads_EBCDIC_from_its_CCSID", "body contains POISON", ebcdicPoison, true},
		{"body_contains_looks_after_the_MQRFH2", `body contains "jms_text"`, jsonClean, false},
		{"body_contains_quoted_text_with_spaces", `body contains "quantity -1"`, jsonPoison, true},
		{"backout_less_than", "backout < 4", redelivered, true},
		{"backout_at_least", "backout >= 4", redelivered, false},
		{"backout_equal", "backout == 3", redelivered, true},
		{"persistent", "persistent", jsonClean, true},
		{"unparseable_damaged_RFH2", "unparseable", bad, true},
		{"unparseable_good_RFH2", "unparseable", jsonClean, false},
		{"or", "never or body contains POISON", jsonPoison, true},
		{"and_binds_tighter_than_or", "always or never and never", jsonClean, true},
		{"and", "persistent and body contains POISON", jsonClean, false},
		{"fraction_zero", "fraction 0", jsonPoison, false},
		{"fraction_one", "fraction 1", jsonClean, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePredicate(tt.pred)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Fails(tt.m, rand.New(rand.NewPCG(1, 1))); got != tt.want {
				t.Fatalf("%q on %q: %v, want %v", tt.pred, bodyText(tt.m), got, tt.want)
			}
			if p.String() != tt.pred {
				t.Errorf("String %q", p.String())
			}
		})
	}
}

func TestPredicateFractionIsSeeded(t *testing.T) {
	p, err := ParsePredicate("fraction 0.3")
	if err != nil {
		t.Fatal(err)
	}
	m := sample(t, PayloadString, false)
	count := func() int {
		rng, n := rand.New(rand.NewPCG(9, 9)), 0
		for range 1000 {
			if p.Fails(m, rng) {
				n++
			}
		}
		return n
	}
	a, b := count(), count()
	if a != b || a < 250 || a > 350 {
		t.Fatalf("fails %d then %d of 1000", a, b)
	}
}

func TestParsePredicateRejects(t *testing.T) {
	tests := []struct{ name, pred, want string }{
		{"unknown_word", "sometimes", "unknown condition"},
		{"body_without_contains", "body POISON", "followed by \"contains\""},
		{"contains_nothing", "body contains", "missing"},
		{"contains_empty_quotes", `body contains ""`, "empty text"},
		{"unclosed_quote", `body contains "POISON`, "unclosed quote at byte 14"},
		{"fraction_above_one", "fraction 2", "from 0 to 1"},
		{"fraction_not_a_number", "fraction NaN", "from 0 to 1"},
		{"backout_bad_operator", "backout ~ 3", "want one of"},
		{"backout_negative", "backout < -1", "whole number"},
		{"trailing_word", "always please", "unexpected \"please\""},
		{"dangling_or", "always or", "missing"},
		{"too_long", strings.Repeat("always or ", 200), "limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePredicate(tt.pred)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

package mqfmt

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestMask(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"JSON keys stay, values are masked",
			`{"card": "4111 1111", "amount": 12.50, "vip": true, "tags": ["gold", "new"]}`,
			`{"card": "•••• ••••", "amount": ••.••, "vip": ••••, "tags": ["••••", "•••"]}`},
		{"nested JSON objects keep their keys",
			`{"a":{"b":[{"c":"x1"}]}}`,
			`{"a":{"b":[{"c":"••"}]}}`},
		{"escaped quotes do not end a JSON string",
			`{"k":"say \"hi\"","k2":"v"}`,
			`{"k":"••• \"••\"","k2":"•"}`},
		{"cut-off JSON is masked to its end",
			`{"user":"alice","pin":"12`,
			`{"user":"•••••","pin":"••`},
		{"XML names stay, text and attribute values are masked",
			`<order id="A17"><name>Alice Smith</name><qty>2</qty></order>`,
			`<order id="•••"><name>••••• •••••</name><qty>•</qty></order>`},
		{"XML declaration keeps its names",
			`<?xml version="1.0" encoding="UTF-8"?><a/>`,
			`<?xml version="•.•" encoding="•••-•"?><a/>`},
		{"XML comments and CDATA lose their content",
			`<a><!-- secret 42 --><![CDATA[pin=1234]]></a>`,
			`<a><!-- •••••• •• --><![CDATA[•••=••••]]></a>`},
		{"stray words in a tag are masked",
			`<a secret words x="1">`,
			`<a •••••• ••••• x="•">`},
		{"a tag that never closes is masked whole",
			`<a x="1"><b`,
			`<a x="•"><•`},
		{"'<' not starting a name is masked like text",
			`<3 my pin is 1234>`,
			`<• •• ••• •• ••••>`},
		{"plain text loses letters and digits, keeps punctuation",
			"Dear Bob, your PIN is 1234.\nBye",
			"•••• •••, •••• ••• •• ••••.\n•••"},
		{"non-ASCII letters are masked", "Grüße 東京", "••••• ••"},
		{"leading white space is kept", "  \n{\"k\":1}", "  \n{\"k\":•}"},
		{"empty stays empty", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Mask(tc.in)
			if got != tc.want {
				t.Errorf("Mask(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if utf8.RuneCountInString(got) != utf8.RuneCountInString(tc.in) {
				t.Errorf("rune count changed: %d -> %d", utf8.RuneCountInString(tc.in), utf8.RuneCountInString(got))
			}
			if strings.ContainsAny(got, "0123456789") && !strings.ContainsAny(tc.in, "{<") {
				t.Errorf("digits left in masked text %q", got)
			}
		})
	}
}

package ops_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// enc writes s in ccsid with the Encoding e, failing the test when it cannot.
func enc(t testing.TB, s string, ccsid int32, e mqfmt.Encoding) []byte {
	t.Helper()
	if ccsid == 1201 { // UTF-16 big-endian, which bodyedit writes as 1200 with a big-endian Encoding
		ccsid, e = 1200, mqfmt.EncodingNormal
	}
	b, err := bodyedit.Encode(s, ccsid, e)
	if err != nil {
		t.Fatalf("encode %q in %d: %v", s, ccsid, err)
	}
	return b
}

// TestBodySearchMatchesTheTextTheCCSIDReads is issue #35: a text search
// matches the characters a body holds as its CCSID and Encoding read it,
// not the typed text's ASCII bytes inside an EBCDIC or UTF-16 body; a body
// that is not text in a known CCSID is matched on bytes.
func TestBodySearchMatchesTheTextTheCCSIDReads(t *testing.T) {
	be, le := mqfmt.EncodingNormal, mqfmt.EncodingNative
	hello500 := enc(t, "HELLO WORLD", 500, be)
	hello037 := enc(t, "HELLO WORLD [A1]", 37, be)
	gzipASCII := append([]byte{0x1F, 0x8B, 0x08, 0x00}, "HELLO"...) // binary: gzip magic, then ASCII bytes
	packed := []byte{0x00, 0x00, 0x01, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x0F, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x03, 0x00, 0x01, 0x02}
	for _, tc := range []struct {
		name, pattern string
		body          []byte
		ccsid         int32
		enc           mqfmt.Encoding
		want          bool
	}{
		// EBCDIC 500: 0x40 is the space, not '@'.
		{"500: @ is not the EBCDIC space", "@", hello500, 500, be, false},
		{"500: HELLO", "HELLO", hello500, 500, be, true},
		{"500: text across the space", "O W", hello500, 500, be, true},
		{"500: the ASCII bytes of HELLO are not in it", "HELLO", []byte("HELLO WORLD"), 500, be, false},
		{"500: lower case is another text", "hello", hello500, 500, be, false},
		// EBCDIC 037: brackets are other bytes than in 500.
		{"037: @ is not the EBCDIC space", "@", hello037, 37, be, false},
		{"037: HELLO", "HELLO", hello037, 37, be, true},
		{"037: brackets", "[A1]", hello037, 37, be, true},
		{"037: the ASCII bytes of HELLO are not in it", "HELLO", []byte("HELLO"), 37, be, false},
		// UTF-16, in the byte order CCSID, Encoding or byte order mark says.
		{"1200 big-endian: héllo", "héllo", enc(t, "say héllo", 1200, be), 1200, be, true},
		{"1200 little-endian: héllo", "héllo", enc(t, "say héllo", 1200, le), 1200, le, true},
		{"1202 little-endian: héllo", "héllo", enc(t, "say héllo", 1202, be), 1202, be, true},
		{"1201 big-endian: héllo", "héllo", enc(t, "say héllo", 1201, le), 1201, le, true},
		{"1200 with a little-endian byte order mark", "héllo", enc(t, "\ufeffsay héllo", 1200, le), 1200, be, true},
		{"1200 read in the wrong order is other text", "héllo", enc(t, "say héllo", 1200, le), 1200, be, false},
		{"UTF-16: the ASCII bytes of AB are U+4142", "AB", enc(t, "\u4142", 1200, be), 1200, be, false},
		{"UTF-16: AB across two characters' bytes", "AB", enc(t, "\u0100\u4100\u4200", 1200, be), 1200, be, false},
		{"UTF-16: @ is not in HELLO WORLD", "@", enc(t, "HELLO WORLD", 1200, le), 1200, le, false},
		// UTF-8: bytes and text agree.
		{"1208: héllo", "héllo", []byte("oh, héllo wörld"), 1208, be, true},
		{"1208: @", "@", []byte("ops@example.com"), 1208, be, true},
		{"1208: absent", "hello", []byte("oh, héllo wörld"), 1208, be, false},
		// Not text in a known CCSID: bytes.
		{"binary in 500: the typed text's bytes", "HELLO", gzipASCII, 500, be, true},
		{"binary in 500: not the EBCDIC text", "HELLO", append([]byte{0x1F, 0x8B, 0x08, 0x00}, hello500...), 500, be, false},
		{"packed record in 500: hex", "hex:012C", packed, 500, be, true},
		{"unknown CCSID: bytes", "HELLO", []byte("xHELLOx"), 4711, be, true},
		{"unknown CCSID: absent", "@", []byte("HELLO"), 4711, be, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ops.ParseBodyPattern(tc.pattern)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Match(tc.body, tc.ccsid, tc.enc); got != tc.want {
				t.Fatalf("Match(%q in % X, CCSID %d, Encoding %d) = %v, want %v", tc.pattern, tc.body, tc.ccsid, tc.enc, got, tc.want)
			}
		})
	}
}

// TestBodySearchSaysHowItMatchedAndShowsDecodedText: a hit says text or
// bytes, and its context line is the decoded text, sanitised, or hex.
func TestBodySearchSaysHowItMatchedAndShowsDecodedText(t *testing.T) {
	long := strings.Repeat("x", 200) + "ORDER 4711\x1b[2J\nPAID" + strings.Repeat("y", 200)
	for _, tc := range []struct {
		name, pattern string
		body          []byte
		ccsid         int32
		enc           mqfmt.Encoding
		kind          ops.MatchKind
		context       string
	}{
		{"EBCDIC", "WORLD", enc(t, "HELLO WORLD", 500, 0), 500, 0, ops.TextMatch, "HELLO WORLD"},
		{"UTF-16LE", "héllo", enc(t, "say héllo", 1200, mqfmt.EncodingNative), 1200, mqfmt.EncodingNative, ops.TextMatch, "say héllo"},
		{"far into the body, escapes and line breaks sanitised", "4711", enc(t, long, 37, 0), 37, 0,
			ops.TextMatch, "…" + strings.Repeat("x", 18) + `ORDER 4711\x1b[2J PAID` + strings.Repeat("y", 51) + "…"},
		{"binary", "HELLO", append([]byte{0x1F, 0x8B, 0x08, 0x1B}, "HELLO\x00"...), 500, 0, ops.ByteMatch, "bytes at 4: 1F 8B 08 1B [48 45 4C 4C 4F] 00"},
		{"hex", "hex:C8C5", enc(t, "HELLO", 500, 0), 500, 0, ops.ByteMatch, "bytes at 0: [C8 C5] D3 D3 D6"},
		// A JMS message whose MQRFH2 does not parse: the typed text is found
		// in the header's bytes, shown as grep -a shows them, not in hex.
		{"text in bytes that are not text", "ORDER", append([]byte("RFH \x00\x00\x00\x02<jms><Dst>queue:///"), "ORDERS.RETURNS.IN</Dst></jms>"...), 1208, 0,
			ops.ByteMatch, "at byte 27: … ....<jms><Dst>queue:///ORDERS.RETURNS.IN</Dst></jms>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := ops.ParseBodyPattern(tc.pattern)
			h := p.Find(tc.body, tc.ccsid, tc.enc)
			if h.Kind != tc.kind || h.Context != tc.context {
				t.Fatalf("Find = %v %q, want %v %q", h.Kind, h.Context, tc.kind, tc.context)
			}
			// At and Len say where the match is in the line, for a narrow
			// column to show it.
			if got := string([]rune(h.Context)[h.At : h.At+h.Len]); got != tc.pattern && !(strings.HasPrefix(got, "[") && strings.HasSuffix(got, "]")) {
				t.Fatalf("At %d Len %d pick %q out of %q, not the match %q", h.At, h.Len, got, h.Context, tc.pattern)
			}
		})
	}
	p, _ := ops.ParseBodyPattern("@")
	if h := p.Find(enc(t, "HELLO WORLD", 500, 0), 500, 0); h != (ops.Hit{}) {
		t.Fatalf("@ in EBCDIC HELLO WORLD: %+v, want no match", h)
	}
}

// TestSearchBodiesMatchesEBCDICTextAndReportsBytes searches a queue: the
// EBCDIC body is matched as text, the binary one as bytes, and each hit
// reaches OnHit before found with its context.
func TestSearchBodiesMatchesEBCDICTextAndReportsBytes(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	put := func(n int, ccsid int32, e mqfmt.Encoding, format string, body []byte) {
		md, _ := original(n)
		md.CodedCharSetId, md.Encoding, md.Format = ccsid, e, format
		f.putSetAll(c, "PARKING.Q", md, body)
	}
	put(0, 500, mqfmt.EncodingNormal, mqfmt.FmtString, enc(t, "HELLO WORLD", 500, 0))
	put(1, 1200, mqfmt.EncodingNative, mqfmt.FmtString, enc(t, "HELLO héllo", 1200, mqfmt.EncodingNative))
	put(2, 500, mqfmt.EncodingNormal, mqfmt.FmtNone, append([]byte{0x1F, 0x8B, 0x08, 0x00}, "HELLO@"...))
	for _, tc := range []struct {
		pattern string
		ids     []int
		kinds   []ops.MatchKind
	}{
		{"@", []int{2}, []ops.MatchKind{ops.ByteMatch}},
		{"HELLO", []int{0, 1, 2}, []ops.MatchKind{ops.TextMatch, ops.TextMatch, ops.ByteMatch}},
		{"héllo", []int{1}, []ops.MatchKind{ops.TextMatch}},
	} {
		p, _ := ops.ParseBodyPattern(tc.pattern)
		var hits []ops.Hit
		var ids []int
		p.OnHit = func(h ops.Hit) { hits = append(hits, h) }
		sp, err := f.engine().SearchBodies(f.ctx, "PARKING.Q", p, nil, func(s mqwatch.Summary) {
			if len(hits) != len(ids)+1 {
				t.Fatalf("%q: found without its hit first", tc.pattern)
			}
			ids = append(ids, int(s.MsgId[23]))
		})
		if err != nil || sp.Scanned != 3 || sp.Matched != len(tc.ids) {
			t.Fatalf("%q: %+v %v", tc.pattern, sp, err)
		}
		bytesWant := 0
		for i, k := range tc.kinds {
			if k == ops.ByteMatch {
				bytesWant++
			}
			if ids[i] != tc.ids[i] || hits[i].Kind != k || !utf8.ValidString(hits[i].Context) || hits[i].Context == "" {
				t.Fatalf("%q: match %d = message %d %+v, want message %d %v", tc.pattern, i, ids[i], hits[i], tc.ids[i], k)
			}
		}
		if sp.ByteMatches != bytesWant {
			t.Fatalf("%q: %d byte matches, want %d", tc.pattern, sp.ByteMatches, bytesWant)
		}
	}
}

// searchReference is what a search must find, the slow way: a body that is
// text in a known CCSID is decoded and searched as text, any other on the
// typed text's bytes.
func searchReference(body []byte, ccsid int32, e mqfmt.Encoding, text string) bool {
	if ccsid == 1201 {
		ccsid, e = 1200, mqfmt.EncodingNormal
	}
	bt := mqfmt.DecodeBody(body, ccsid, e)
	if bt.Kind != mqfmt.KindBinary && !errors.Is(bt.Err, mqfmt.ErrUnknownCCSID) {
		return strings.Contains(bt.Text, text)
	}
	return bytes.Contains(body, []byte(text))
}

// FuzzBodySearchIsADecodedTextSearch: Match looks for the text in the
// body's bytes, written in its CCSID, rather than decode every body; it
// must find exactly what decoding and searching the text finds, and its
// context line must be safe to print.
func FuzzBodySearchIsADecodedTextSearch(f *testing.F) {
	ccsids := []int32{500, 37, 1047, 819, 437, 850, 1252, 367, 1208, 1200, 1201, 1202, 4711}
	f.Add(enc(f, "HELLO WORLD", 500, 0), "@", uint8(0), false)
	f.Add(enc(f, "say héllo", 1200, mqfmt.EncodingNative), "héllo", uint8(9), true)
	f.Add([]byte{0x01, 0x00, 0x41, 0x00, 0x42, 0x00}, "AB", uint8(9), false)
	f.Add([]byte("oh, h\xc3\xa9llo \xe2\x82 w"), "é", uint8(8), false)
	f.Add([]byte{0xFF, 0xFE, 0x41, 0x00, 0xD8, 0x00}, "A", uint8(11), false)
	f.Add([]byte("\x1f\x8b\x08HELLO"), "HELLO", uint8(0), false)
	f.Fuzz(func(t *testing.T, body []byte, text string, which uint8, little bool) {
		if text == "" {
			return
		}
		ccsid := ccsids[int(which)%len(ccsids)]
		e := mqfmt.EncodingNormal
		if little {
			e = mqfmt.EncodingNative
		}
		p, err := ops.ParseBodyPattern(text)
		if err != nil || p.Bytes != nil {
			return
		}
		want := searchReference(body, ccsid, e, text)
		if got := p.Match(body, ccsid, e); got != want {
			t.Fatalf("Match(%q in % X, CCSID %d, Encoding %d) = %v, the decoded text says %v", text, body, ccsid, e, got, want)
		}
		h := p.Find(body, ccsid, e)
		if (h.Kind != ops.NoMatch) != want {
			t.Fatalf("Find = %+v, Match = %v", h, want)
		}
		if h.Context != mqfmt.Sanitize(h.Context) {
			t.Fatalf("context %q is not sanitised", h.Context)
		}
	})
}

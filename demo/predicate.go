package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// maxPredicateLen bounds a failure predicate; real ones are a few words.
const maxPredicateLen = 1024

// Predicate decides whether an application fails to process a message, which
// makes its consumer roll the message back.
//
// Grammar (words are case-insensitive; "and" binds tighter than "or"):
//
//	predicate = clause { "or" clause }
//	clause    = term { "and" term }
//	term      = "always" | "never"
//	          | "body contains" VALUE     the body (decoded from its CCSID when text) holds VALUE
//	          | "fraction" NUMBER         fails that fraction of deliveries, drawn from the seed
//	          | "backout" OP INTEGER      compares the MQMD BackoutCount; OP is < <= > >= ==
//	          | "persistent"              the message is persistent
//	          | "unparseable"             its header chain does not decode (a damaged MQRFH2)
//	VALUE     = a word, or text in double quotes
type Predicate struct {
	src  string
	eval func(m *mqwatch.Message, rng *rand.Rand) bool
}

// String returns the predicate as written.
func (p Predicate) String() string { return p.src }

// Fails reports whether processing m fails. A zero Predicate never fails.
func (p Predicate) Fails(m *mqwatch.Message, rng *rand.Rand) bool {
	return p.eval != nil && p.eval(m, rng)
}

// ParsePredicate reads a failure predicate; "" never fails.
func ParsePredicate(s string) (Predicate, error) {
	if len(s) > maxPredicateLen {
		return Predicate{}, fmt.Errorf("failure predicate: %d characters, limit %d", len(s), maxPredicateLen)
	}
	toks, err := tokenize(s)
	if err != nil {
		return Predicate{}, fmt.Errorf("failure predicate %q: %w", s, err)
	}
	if len(toks) == 0 {
		return Predicate{src: s}, nil
	}
	p := &predParser{toks: toks}
	eval, err := p.or()
	if err == nil && p.pos < len(toks) {
		err = fmt.Errorf("unexpected %q at word %d", toks[p.pos].text, p.pos+1)
	}
	if err != nil {
		return Predicate{}, fmt.Errorf("failure predicate %q: %w", s, err)
	}
	return Predicate{src: s, eval: eval}, nil
}

type token struct {
	text   string
	quoted bool
}

func tokenize(s string) ([]token, error) {
	var out []token
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			j := strings.IndexByte(s[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("unclosed quote at byte %d", i)
			}
			out = append(out, token{text: s[i+1 : i+1+j], quoted: true})
			i += j + 2
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\r\n\"", rune(s[j])) {
				j++
			}
			out = append(out, token{text: s[i:j]})
			i = j
		}
	}
	return out, nil
}

type evalFunc = func(m *mqwatch.Message, rng *rand.Rand) bool

type predParser struct {
	toks []token
	pos  int
}

func (p *predParser) word(w string) bool {
	if p.pos < len(p.toks) && !p.toks[p.pos].quoted && strings.EqualFold(p.toks[p.pos].text, w) {
		p.pos++
		return true
	}
	return false
}

func (p *predParser) next(what string) (token, error) {
	if p.pos >= len(p.toks) {
		return token{}, fmt.Errorf("missing %s at the end", what)
	}
	t := p.toks[p.pos]
	p.pos++
	return t, nil
}

func (p *predParser) or() (evalFunc, error) {
	left, err := p.and()
	for err == nil && p.word("or") {
		var right evalFunc
		if right, err = p.and(); err == nil {
			l := left
			left = func(m *mqwatch.Message, rng *rand.Rand) bool { return l(m, rng) || right(m, rng) }
		}
	}
	return left, err
}

func (p *predParser) and() (evalFunc, error) {
	left, err := p.term()
	for err == nil && p.word("and") {
		var right evalFunc
		if right, err = p.term(); err == nil {
			l := left
			left = func(m *mqwatch.Message, rng *rand.Rand) bool { return l(m, rng) && right(m, rng) }
		}
	}
	return left, err
}

func (p *predParser) term() (evalFunc, error) {
	t, err := p.next("a condition")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(t.text) {
	case "always":
		return func(*mqwatch.Message, *rand.Rand) bool { return true }, nil
	case "never":
		return func(*mqwatch.Message, *rand.Rand) bool { return false }, nil
	case "persistent":
		return func(m *mqwatch.Message, _ *rand.Rand) bool { return m.MD.Persistence == mqfmt.PerPersistent }, nil
	case "unparseable":
		return func(m *mqwatch.Message, _ *rand.Rand) bool {
			_, err := mqfmt.WalkChain(m.MD.Format, m.MD.Encoding, m.MD.CodedCharSetId, m.Data)
			return err != nil
		}, nil
	case "body":
		return p.contains()
	case "fraction":
		return p.fraction()
	case "backout":
		return p.backout()
	}
	return nil, fmt.Errorf("unknown condition %q (want always, never, body contains, fraction, backout, persistent, unparseable)", t.text)
}

func (p *predParser) contains() (evalFunc, error) {
	if !p.word("contains") {
		return nil, fmt.Errorf("\"body\" must be followed by \"contains\"")
	}
	v, err := p.next("the text body contains looks for")
	if err != nil {
		return nil, err
	}
	if v.text == "" {
		return nil, fmt.Errorf("body contains: empty text")
	}
	want := v.text
	return func(m *mqwatch.Message, _ *rand.Rand) bool { return strings.Contains(bodyText(m), want) }, nil
}

func (p *predParser) fraction() (evalFunc, error) {
	v, err := p.next("a fraction")
	if err != nil {
		return nil, err
	}
	f, err := strconv.ParseFloat(v.text, 64)
	if err != nil || math.IsNaN(f) || f < 0 || f > 1 {
		return nil, fmt.Errorf("fraction %q: want a number from 0 to 1", v.text)
	}
	return func(_ *mqwatch.Message, rng *rand.Rand) bool { return rng.Float64() < f }, nil
}

func (p *predParser) backout() (evalFunc, error) {
	op, err := p.next("a comparison")
	if err != nil {
		return nil, err
	}
	v, err := p.next("a BackoutCount")
	if err != nil {
		return nil, err
	}
	n, err := strconv.ParseInt(v.text, 10, 32)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("backout %s %q: want a whole number from 0", op.text, v.text)
	}
	k := int32(n)
	cmp := map[string]func(int32) bool{
		"<": func(c int32) bool { return c < k }, "<=": func(c int32) bool { return c <= k },
		">": func(c int32) bool { return c > k }, ">=": func(c int32) bool { return c >= k },
		"==": func(c int32) bool { return c == k },
	}[op.text]
	if cmp == nil {
		return nil, fmt.Errorf("backout %q: want one of < <= > >= ==", op.text)
	}
	return func(m *mqwatch.Message, _ *rand.Rand) bool { return cmp(m.MD.BackoutCount) }, nil
}

// bodyText returns the body after the header chain, decoded from its CCSID
// when it is character data, else its raw bytes, as an application that
// reads the message would see it.
func bodyText(m *mqwatch.Message) string {
	ch, err := mqfmt.WalkChain(m.MD.Format, m.MD.Encoding, m.MD.CodedCharSetId, m.Data)
	if err != nil {
		return string(m.Data)
	}
	b := ch.Body
	data := m.Data[min(b.Offset, len(m.Data)):]
	if mqfmt.Trim(b.Format) == mqfmt.Trim(mqfmt.FmtString) {
		// DecodeTextEnc returns usable text with every error but an unknown CCSID.
		if s, err := mqfmt.DecodeTextEnc(data, b.CCSID, b.Encoding); err == nil || s != "" {
			return s
		}
	}
	return string(data)
}

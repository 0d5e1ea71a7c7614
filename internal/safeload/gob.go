package safeload

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
)

// GobLimits bound one value of a gob stream. The zero value of a field means
// its default.
type GobLimits struct {
	// MaxValueBytes bounds a value's messages: its type definitions and
	// itself. Default 64 MiB.
	MaxValueBytes int64
	// MaxTypes bounds the types a stream defines. Default 1024.
	MaxTypes int
	// MaxDepth bounds how deep a value nests (structs, slices, maps).
	// Default 32.
	MaxDepth int
	// StructSize is what a struct is counted at in GobValue.Memory: at
	// least the largest struct the decoder fills. Default 512.
	StructSize int
}

// Defaults for GobLimits.
const (
	DefaultGobValueBytes = 64 << 20
	DefaultGobTypes      = 1024
	DefaultGobDepth      = 32
	DefaultGobStructSize = 512
)

func (l GobLimits) withDefaults() GobLimits {
	if l.MaxValueBytes <= 0 {
		l.MaxValueBytes = DefaultGobValueBytes
	}
	if l.MaxTypes <= 0 {
		l.MaxTypes = DefaultGobTypes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultGobDepth
	}
	if l.StructSize <= 0 {
		l.StructSize = DefaultGobStructSize
	}
	return l
}

// GobStream reads a gob stream (encoding/gob) one value at a time and scans
// each before a decoder sees it. The decoder trusts the counts it reads: a
// map's announced size is allocated before a single entry is read, and an
// element of a few bytes on the wire (an empty struct is one) becomes a
// struct of hundreds in memory, so a crafted file of a megabyte takes
// gigabytes. The scan reads every count against the bytes that follow it and
// estimates what decoding the value will hold, so the caller can refuse it
// before it is decoded. It allocates nothing in proportion to what the
// counts claim.
type GobStream struct {
	r     *bufio.Reader
	lim   GobLimits
	types map[int64]*gobType
	off   int64  // of the next message in the stream
	buf   []byte // the last value's Data, reused
}

// GobValue is one value's messages, whole, and what decoding them will hold.
type GobValue struct {
	// Data is the value's messages (its type definitions, then itself), to
	// hand to a gob.Decoder that read the stream's earlier values. It is
	// valid until the next call of Next.
	Data []byte
	// Offset is where Data starts in the stream.
	Offset int64
	// Memory is what decoding the value holds, estimated from the
	// encoding alone and never below it: every struct at the top or in a
	// slice or map is counted at StructSize, every slice and map element's
	// slot and every string's bytes as they are.
	Memory int64
}

// NewGobStream reads gob messages from r.
func NewGobStream(r io.Reader, lim GobLimits) *GobStream {
	return &GobStream{r: bufio.NewReader(r), lim: lim.withDefaults(), types: map[int64]*gobType{}}
}

// Offset is where the next value starts in the stream.
func (s *GobStream) Offset() int64 { return s.off }

// GobError is a stream refused: what is wrong and at which offset of the
// stream the value holding it starts.
type GobError struct {
	Offset int64
	Err    error
}

func (e *GobError) Error() string { return fmt.Sprintf("at byte %d: %v", e.Offset, e.Err) }
func (e *GobError) Unwrap() error { return e.Err }

// Next reads and scans the next value. It returns io.EOF at the end of the
// stream between values, io.ErrUnexpectedEOF when the stream ends inside
// one (a writer killed mid-frame), and a *GobError for a value refused (one
// over MaxValueBytes wraps ErrTooLarge).
func (s *GobStream) Next() (GobValue, error) {
	v := GobValue{Offset: s.off, Data: s.buf[:0]}
	defer func() { s.buf = v.Data }()
	for {
		n, err := s.count(len(v.Data) > 0)
		if err != nil {
			return v, err
		}
		at := len(v.Data)
		if n > uint64(s.lim.MaxValueBytes)-uint64(at) {
			return v, &GobError{v.Offset, fmt.Errorf("a frame of more than %d bytes (the cap on one frame): %w", s.lim.MaxValueBytes, ErrTooLarge)}
		}
		v.Data = appendUint(v.Data, n)
		body := len(v.Data)
		if v.Data, err = readN(s.r, v.Data, int(n)); err != nil {
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				err = &GobError{v.Offset, err}
			}
			return v, err
		}
		s.off += int64(len(v.Data) - at)
		done, err := s.message(v.Data[body:], &v)
		if err != nil {
			return v, &GobError{v.Offset, err}
		}
		if done {
			return v, nil
		}
	}
}

// count reads a message's length; inside a value, the end of the stream is
// a value cut short.
func (s *GobStream) count(inside bool) (uint64, error) {
	n, err := readUint(s.r)
	switch {
	case errors.Is(err, io.EOF) && inside:
		err = io.ErrUnexpectedEOF
	case err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF):
		err = &GobError{s.off, err}
	}
	return n, err
}

// readN appends n bytes of r to b, growing b as they arrive rather than by
// what n claims.
func readN(r io.Reader, b []byte, n int) ([]byte, error) {
	const step = 1 << 20
	for n > 0 {
		k := min(n, step)
		start := len(b)
		b = slices.Grow(b, k)[:start+k]
		if _, err := io.ReadFull(r, b[start:]); err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return b, err
		}
		n -= k
	}
	return b, nil
}

// message scans one message: a type definition (done false) or the value.
func (s *GobStream) message(b []byte, v *GobValue) (done bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			ge, ok := r.(gobScanError)
			if !ok {
				panic(r)
			}
			err = ge.error
		}
	}()
	c := &cursor{b: b}
	id := c.int()
	if id < 0 {
		if len(s.types) >= s.lim.MaxTypes {
			return false, fmt.Errorf("more than %d gob types", s.lim.MaxTypes)
		}
		s.types[-id] = c.wireType()
		if c.left() != 0 {
			return false, errors.New("a gob type definition with bytes after it")
		}
		return false, nil
	}
	t := s.typ(id)
	if t.kind != kStruct {
		return false, fmt.Errorf("a gob value of type %q, not a struct", t.name)
	}
	w := walker{s: s, c: c, v: v}
	v.Memory += 2 * int64(s.lim.StructSize) // the value and what its pointers hold
	w.value(t, 0, false)
	if c.left() != 0 {
		return false, errors.New("a gob value with bytes after it")
	}
	return true, nil
}

func (s *GobStream) typ(id int64) *gobType {
	if t := builtin(id); t != nil {
		return t
	}
	t := s.types[id]
	if t == nil {
		fail("gob type %d used but never defined", id)
	}
	return t
}

// walker visits a value's encoding, adding up what decoding it holds.
type walker struct {
	s *GobStream
	c *cursor
	v *GobValue
}

// value walks a value of type t; elem says it is an element of a slice or
// map, held in the slice's array or the map's table rather than inside
// another struct.
func (w *walker) value(t *gobType, depth int, elem bool) {
	if depth > w.s.lim.MaxDepth {
		fail("gob value nested deeper than %d", w.s.lim.MaxDepth)
	}
	c := w.c
	switch t.kind {
	case kBool, kInt, kUint, kFloat:
		c.uint()
	case kComplex:
		c.uint()
		c.uint()
	case kBytes, kString:
		w.v.Memory += int64(len(c.bytes()))
	case kEncoder:
		c.bytes()
	case kStruct:
		if elem {
			w.v.Memory += int64(w.s.lim.StructSize)
		}
		for f := c.field(-1, len(t.fields)); f >= 0; f = c.field(f, len(t.fields)) {
			w.value(w.s.typ(t.fields[f]), depth+1, false)
		}
	case kSlice, kArray:
		n := c.length(1)
		et := w.s.typ(t.elem)
		if t.kind == kArray && n != t.len {
			fail("gob array %s of %d elements, not %d", t.name, n, t.len)
		}
		if t.kind == kSlice {
			w.v.Memory += int64(n) * w.slot(et, 0)
		}
		for range n {
			w.value(et, depth+1, t.kind == kSlice)
		}
	case kMap:
		n := c.length(2)
		kt, et := w.s.typ(t.key), w.s.typ(t.elem)
		w.v.Memory += int64(n) * (w.slot(kt, 0) + w.slot(et, 0) + 16)
		for range n {
			w.value(kt, depth+1, true)
			w.value(et, depth+1, true)
		}
	default:
		fail("gob %s values are not read here", t.name)
	}
}

// slot is what a value of type t takes in a slice's array or a map's table
// besides what value counts itself (a struct element's StructSize, a
// string's bytes).
func (w *walker) slot(t *gobType, depth int) int64 {
	switch t.kind {
	case kStruct:
		return 0
	case kString, kComplex:
		return 16
	case kBytes, kSlice:
		return 24
	case kEncoder:
		return 32
	case kArray:
		if depth > w.s.lim.MaxDepth {
			fail("gob value nested deeper than %d", w.s.lim.MaxDepth)
		}
		return int64(t.len) * w.slot(w.s.typ(t.elem), depth+1)
	}
	return 8
}

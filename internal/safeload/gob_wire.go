package safeload

import (
	"fmt"
	"io"
)

// The wire format is encoding/gob's, as its package documentation gives
// it: messages of a length and a body; a body is a type id (negative: the
// definition of that type follows) and an encoding; unsigned integers take
// one byte below 128, else a byte of minus their length and their bytes
// big-endian; signed ones are unsigned ones with the sign in the low bit.

type gobKind uint8

const (
	kBool gobKind = iota + 1
	kInt
	kUint
	kFloat
	kBytes
	kString
	kComplex
	kInterface
	kStruct
	kSlice
	kArray
	kMap
	kEncoder // GobEncoder, BinaryMarshaler, TextMarshaler: a byte string
)

type gobType struct {
	kind      gobKind
	name      string
	elem, key int64   // slice, array and map elements; map keys
	len       int     // array length
	fields    []int64 // struct fields' types, in order
}

var builtins = [...]*gobType{
	1: {kind: kBool, name: "bool"}, 2: {kind: kInt, name: "int"}, 3: {kind: kUint, name: "uint"},
	4: {kind: kFloat, name: "float"}, 5: {kind: kBytes, name: "[]byte"}, 6: {kind: kString, name: "string"},
	7: {kind: kComplex, name: "complex"}, 8: {kind: kInterface, name: "interface"},
}

func builtin(id int64) *gobType {
	if id > 0 && id < int64(len(builtins)) {
		return builtins[id]
	}
	return nil
}

// gobScanError carries a refusal out of the scan's recursion to Next.
type gobScanError struct{ error }

func fail(format string, a ...any) { panic(gobScanError{fmt.Errorf(format, a...)}) }

// cursor reads a message body; running past its end fails the scan.
type cursor struct {
	b []byte
	i int
}

func (c *cursor) left() int { return len(c.b) - c.i }

func (c *cursor) uint() uint64 {
	if c.left() < 1 {
		fail("gob message cut short")
	}
	b := c.b[c.i]
	c.i++
	if b < 0x80 {
		return uint64(b)
	}
	n := -int(int8(b))
	if n > 8 || c.left() < n {
		fail("gob integer of %d bytes", n)
	}
	var x uint64
	for _, d := range c.b[c.i : c.i+n] {
		x = x<<8 | uint64(d)
	}
	c.i += n
	return x
}

func (c *cursor) int() int64 {
	u := c.uint()
	if u&1 != 0 {
		return ^int64(u >> 1)
	}
	return int64(u >> 1)
}

// length reads a count of items of at least min bytes each: a count the
// rest of the message cannot hold is refused before anything loops on it.
func (c *cursor) length(min int) int {
	n := c.uint()
	if n > uint64(c.left()/min) {
		fail("gob count %d with %d bytes left", n, c.left())
	}
	return int(n)
}

func (c *cursor) bytes() []byte {
	n := c.length(1)
	b := c.b[c.i : c.i+n]
	c.i += n
	return b
}

// field reads the number of a struct's next field after field (-1 at the
// start) of max: -1 at the struct's end.
func (c *cursor) field(field, max int) int {
	d := c.uint()
	if d == 0 {
		return -1
	}
	if d > uint64(max) || field+int(d) >= max {
		fail("gob struct: field %d of %d", field+int(d), max)
	}
	return field + int(d)
}

// fields reads a struct's encoding, calling f with each field's number.
func (c *cursor) fields(max int, f func(int)) {
	for i := c.field(-1, max); i >= 0; i = c.field(i, max) {
		f(i)
	}
}

// wireType reads a type definition (gob's wireType: one of ArrayT, SliceT,
// StructT, MapT and the three marshaler kinds).
func (c *cursor) wireType() *gobType {
	var t *gobType
	c.fields(7, func(kind int) {
		t = &gobType{kind: [...]gobKind{kArray, kSlice, kStruct, kMap, kEncoder, kEncoder, kEncoder}[kind]}
		c.fields(3, func(f int) {
			switch {
			case f == 0:
				c.commonType(t)
			case f == 1 && t.kind == kStruct:
				n := c.length(1)
				for range n {
					var id int64
					c.fields(2, func(g int) {
						if g == 0 {
							c.bytes() // the field's name: the decoder's business
						} else {
							id = c.int()
						}
					})
					t.fields = append(t.fields, id)
				}
			case f == 1 && t.kind == kMap:
				t.key = c.int()
			case f == 1 && t.kind != kEncoder:
				t.elem = c.int()
			case f == 2 && t.kind == kArray:
				t.len = int(c.int())
			case f == 2 && t.kind == kMap:
				t.elem = c.int()
			default:
				fail("gob type definition: field %d of a %d", f, t.kind)
			}
		})
	})
	if t == nil {
		fail("gob type definition of no kind")
	}
	return t
}

func (c *cursor) commonType(t *gobType) {
	c.fields(2, func(f int) {
		if f == 0 {
			t.name = string(c.bytes())
		} else {
			c.int()
		}
	})
}

// readUint reads a message length from r.
func readUint(r io.ByteReader) (uint64, error) {
	b, err := r.ReadByte()
	if err != nil {
		return 0, err
	}
	if b < 0x80 {
		return uint64(b), nil
	}
	n := -int(int8(b))
	if n > 8 {
		return 0, fmt.Errorf("gob message length of %d bytes", n)
	}
	var x uint64
	for range n {
		d, err := r.ReadByte()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		x = x<<8 | uint64(d)
	}
	return x, nil
}

// appendUint appends x as gob writes a message length.
func appendUint(b []byte, x uint64) []byte {
	if x < 0x80 {
		return append(b, byte(x))
	}
	var buf [8]byte
	n := 0
	for v := x; v > 0; v >>= 8 {
		n++
	}
	for i := range n {
		buf[n-1-i] = byte(x >> (8 * i))
	}
	return append(append(b, byte(-n)), buf[:n]...)
}

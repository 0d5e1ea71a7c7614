package safeload

import (
	"bytes"
	"encoding/gob"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"
)

type gobItem struct {
	ID    [4]byte
	Name  string
	At    time.Time
	Flag  bool
	Score float64
	Data  []byte
	Next  *gobItem
}

type gobFrame struct {
	Items []gobItem
	ByKey map[string][]gobItem
	Names []string
	Pos   *struct{ X, Y int }
	Pair  complex128
}

func gobFrames() []gobFrame {
	at := time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)
	return []gobFrame{
		{Items: []gobItem{{ID: [4]byte{1, 2, 3, 200}, Name: "a", At: at, Flag: true, Score: 1.5, Data: []byte("xyz"),
			Next: &gobItem{Name: "nested"}}}, Names: []string{"p", "q"}},
		{ByKey: map[string][]gobItem{"k": {{Name: "in a map"}, {}}, "": nil}, Pos: &struct{ X, Y int }{-3, 4}, Pair: 1 + 2i},
		{},
	}
}

// encodeGob writes values as one gob stream.
func encodeGob(t testing.TB, vs ...any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := gob.NewEncoder(&b)
	for _, v := range vs {
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// A stream read through GobStream decodes to what was written, one value
// per Next, each estimated at no less than it holds.
func TestGobStreamRoundTrip(t *testing.T) {
	want := gobFrames()
	var vs []any
	for _, f := range want {
		vs = append(vs, f)
	}
	s := NewGobStream(bytes.NewReader(encodeGob(t, vs...)), GobLimits{})
	src := bytes.NewReader(nil)
	dec := gob.NewDecoder(src)
	for i, w := range want {
		v, err := s.Next()
		if err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		src.Reset(v.Data)
		var got gobFrame
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		if !reflect.DeepEqual(got, w) && !(i == 1 && len(got.ByKey) == 2) {
			t.Errorf("value %d: %+v, want %+v", i, got, w)
		}
		if src.Len() != 0 {
			t.Errorf("value %d: %d bytes not decoded", i, src.Len())
		}
		if v.Memory < 2*DefaultGobStructSize {
			t.Errorf("value %d: memory %d", i, v.Memory)
		}
	}
	if _, err := s.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("after the last value: %v, want io.EOF", err)
	}
}

// Counts are estimated before anything is decoded: a million empty
// structs take a megabyte on the wire and half a gigabyte decoded.
func TestGobStreamEstimatesElements(t *testing.T) {
	data := encodeGob(t, struct{ Items []struct{ N int } }{make([]struct{ N int }, 1_000_000)})
	v, err := NewGobStream(bytes.NewReader(data), GobLimits{}).Next()
	if err != nil {
		t.Fatal(err)
	}
	if v.Memory < 1_000_000*DefaultGobStructSize || len(data) > 2_000_000 {
		t.Fatalf("%d bytes on the wire estimated at %d", len(data), v.Memory)
	}
}

// patchValue rewrites the last message of a gob stream with f.
func patchValue(t *testing.T, data []byte, f func([]byte) []byte) []byte {
	t.Helper()
	r := bytes.NewReader(data)
	var out []byte
	for r.Len() > 0 {
		n, err := readUint(r)
		if err != nil {
			t.Fatal(err)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		if r.Len() == 0 {
			body = f(body)
		}
		out = append(appendUint(out, uint64(len(body))), body...)
	}
	return out
}

// Crafted streams are refused before a decoder would allocate what they
// claim, each with an error saying what is wrong and where.
func TestGobStreamRefusesCraftedValues(t *testing.T) {
	oneEntry := encodeGob(t, gobFrame{ByKey: map[string][]gobItem{"k": nil}})
	mapCount := patchValue(t, oneEntry, func(b []byte) []byte {
		// the map's count, 1, before its key "k": claim 2^32 entries
		i := bytes.Index(b, []byte{1, 1, 'k'})
		return append(append(append([]byte{}, b[:i]...), 0xFB, 1, 0, 0, 0, 0), b[i+1:]...)
	})
	long := encodeGob(t, gobFrame{Names: []string{strings.Repeat("x", 5000)}})
	for _, tc := range []struct {
		name string
		data []byte
		lim  GobLimits
		want string
	}{
		{"map_count", mapCount, GobLimits{}, "gob count 4294967296 with"},
		{"frame_bytes", long, GobLimits{MaxValueBytes: 4096}, "a frame of more than 4096 bytes (the cap on one frame)"},
		{"types", encodeGob(t, gobFrames()[0]), GobLimits{MaxTypes: 2}, "more than 2 gob types"},
		{"depth", encodeGob(t, gobFrame{Items: []gobItem{{Next: &gobItem{Next: &gobItem{}}}}}), GobLimits{MaxDepth: 3}, "nested deeper than 3"},
		{"undefined_type", []byte{3, 0xff, 0x80, 0}, GobLimits{}, "gob type 64 used but never defined"},
		{"not_a_struct", encodeGob(t, 5), GobLimits{}, "not a struct"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewGobStream(bytes.NewReader(tc.data), tc.lim).Next()
			var ge *GobError
			if !errors.As(err, &ge) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a GobError with %q", err, tc.want)
			}
		})
	}
	if _, err := NewGobStream(bytes.NewReader(long), GobLimits{MaxValueBytes: 4096}).Next(); !errors.Is(err, ErrTooLarge) {
		t.Errorf("over the frame cap: %v, want ErrTooLarge", err)
	}
}

// A stream cut inside a value is io.ErrUnexpectedEOF, as a writer killed
// mid-frame leaves it; cut between values, io.EOF.
func TestGobStreamCutShort(t *testing.T) {
	data := encodeGob(t, gobFrames()[0], gobFrames()[1])
	first, err := NewGobStream(bytes.NewReader(data), GobLimits{}).Next()
	if err != nil {
		t.Fatal(err)
	}
	s := NewGobStream(bytes.NewReader(data[:len(first.Data)]), GobLimits{})
	if _, err := s.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("between values: %v", err)
	}
	s = NewGobStream(bytes.NewReader(data[:len(data)-3]), GobLimits{})
	s.Next()
	if _, err := s.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("inside a value: %v", err)
	}
}

func TestCapReader(t *testing.T) {
	for _, tc := range []struct {
		size, max int
		over      bool
	}{{10, 10, false}, {11, 10, true}, {0, 0, false}, {1 << 20, 1000, true}} {
		c := &CapReader{R: bytes.NewReader(make([]byte, tc.size)), Max: int64(tc.max), What: "decompressed bytes"}
		b, err := io.ReadAll(c)
		if tc.over != (err != nil) || tc.over && (!errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "decompressed bytes")) {
			t.Errorf("%d bytes, cap %d: %v", tc.size, tc.max, err)
		}
		if len(b) > tc.max {
			t.Errorf("%d bytes, cap %d: read %d", tc.size, tc.max, len(b))
		}
	}
}

// FuzzGobStream feeds arbitrary streams to the scan and what it accepts to
// the decoder: neither panics, and a value the decoder takes is never
// estimated below what it holds (its messages' size at least).
func FuzzGobStream(f *testing.F) {
	for _, fr := range gobFrames() {
		f.Add(encodeGob(f, fr))
	}
	f.Add(encodeGob(f, gobFrames()[0], gobFrames()[1]))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewGobStream(bytes.NewReader(data), GobLimits{MaxValueBytes: 1 << 16})
		src := bytes.NewReader(nil)
		dec := gob.NewDecoder(src)
		for range 8 {
			v, err := s.Next()
			if err != nil {
				return
			}
			src.Reset(v.Data)
			var got gobFrame
			if dec.Decode(&got) != nil {
				return
			}
			if v.Memory < int64(len(got.Items)+len(got.ByKey)+len(got.Names)) {
				t.Fatalf("estimate %d below %d elements", v.Memory, len(got.Items)+len(got.ByKey)+len(got.Names))
			}
		}
	})
}

package mqfmt

import (
	"strconv"
	"strings"
	"testing"
)

// Seed corpora live in testdata/fuzz/<FuzzName>/.

// FuzzReportOptions checks that the names account for every bit exactly
// once: OR-ing the bits of the returned names gives back the Report field.
func FuzzReportOptions(f *testing.F) {
	bits := map[string]uint32{}
	for _, fl := range reportFields {
		for _, v := range fl.names {
			bits[v.name] = v.bits
		}
	}
	for _, d := range reportDefaults {
		bits[d.set] = d.bit
		if d.cleared != "" {
			bits[d.cleared] = 0
		}
	}
	f.Fuzz(func(t *testing.T, ro int32) {
		names := ReportOptions(ro)
		var got uint32
		seen := map[string]bool{}
		for _, n := range names {
			if seen[n] {
				t.Fatalf("ReportOptions(%#x) repeats %s: %q", uint32(ro), n, names)
			}
			seen[n] = true
			b, ok := bits[n]
			if !ok {
				h, err := strconv.ParseUint(strings.TrimPrefix(n, "0x"), 16, 32)
				if err != nil || !strings.HasPrefix(n, "0x") {
					t.Fatalf("ReportOptions(%#x) returned %q, neither a name nor hex", uint32(ro), n)
				}
				b = uint32(h)
			}
			if got&b != 0 {
				t.Fatalf("ReportOptions(%#x): %s overlaps earlier names: %q", uint32(ro), n, names)
			}
			got |= b
		}
		if got != uint32(ro) {
			t.Fatalf("ReportOptions(%#x) = %q accounts for %#x", uint32(ro), names, got)
		}
	})
}

// FuzzFormatName checks that any Format bytes give either an IBM name or
// nothing, never an echo of the input, and always a meaning.
func FuzzFormatName(f *testing.F) {
	f.Fuzz(func(t *testing.T, format string) {
		n := FormatName(format)
		if n != "" && !strings.HasPrefix(n, "MQFMT_") {
			t.Fatalf("FormatName(%q) = %q", format, n)
		}
		if n != "" && mqfmtMeaning[n] == "" {
			t.Fatalf("FormatName(%q) = %q has no meaning", format, n)
		}
		if FormatMeaning(format) == "" {
			t.Fatalf("FormatMeaning(%q) is empty", format)
		}
	})
}

// FuzzReasonDescribe checks that every int32, as a reason or a feedback
// code, gets a name and a printable, non-empty explanation.
func FuzzReasonDescribe(f *testing.F) {
	f.Fuzz(func(t *testing.T, v int32) {
		for _, d := range []struct{ name, desc string }{
			{Reason(v).String(), Reason(v).Describe()},
			{Feedback(v).String(), Feedback(v).Describe()},
		} {
			if !strings.HasPrefix(d.desc, d.name+" ("+strconv.Itoa(int(v))+"): ") {
				t.Fatalf("%d: Describe() = %q does not start with its name and value", v, d.desc)
			}
			if len(d.desc) <= len(d.name)+len(strconv.Itoa(int(v)))+5 || strings.ContainsAny(d.desc, "\n\r\t\x1b") {
				t.Fatalf("%d: Describe() = %q", v, d.desc)
			}
		}
	})
}

// FuzzEncodingName checks that a field-by-field name accounts for every bit.
func FuzzEncodingName(f *testing.F) {
	bits := map[string]uint32{}
	for _, fl := range encFields {
		for _, v := range fl.values {
			bits[v.name] = v.bits
		}
	}
	f.Fuzz(func(t *testing.T, v int32) {
		e := Encoding(v)
		name := EncodingName(e)
		if EncodingMeaning(e) == "" {
			t.Fatalf("EncodingMeaning(%d) is empty", v)
		}
		for _, w := range encWhole {
			if w.v == e {
				return
			}
		}
		var got uint32
		for _, p := range strings.Split(name, "+") {
			b, ok := bits[p]
			if !ok {
				h, err := strconv.ParseUint(strings.TrimPrefix(p, "0x"), 16, 32)
				if err != nil || !strings.HasPrefix(p, "0x") {
					t.Fatalf("EncodingName(%d) = %q: part %q is neither a name nor hex", v, name, p)
				}
				b = uint32(h)
			}
			got |= b
		}
		if got != uint32(v) {
			t.Fatalf("EncodingName(%d) = %q accounts for %#x", v, name, got)
		}
	})
}

func BenchmarkReportOptions(b *testing.B) {
	ros := []int32{0, ROCOA | RODiscardMsg, ROExceptionWithData | ROPassMsgId | ROPassCorrelId, 0x7FFFFFFF}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = ReportOptions(ros[i%len(ros)])
	}
}

func BenchmarkFormatName(b *testing.B) {
	fmts := []string{FmtRFH2, FmtString, FmtNone, "MYAPP   ", FmtXmitQHeader}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = FormatName(fmts[i%len(fmts)])
	}
}

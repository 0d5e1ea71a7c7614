package mqfmt

import (
	"testing"
	"time"
)

func TestParsePutTime(t *testing.T) {
	tests := []struct {
		name, date, tod string
		want            time.Time
		wantErr         bool
	}{
		{"amqsbcg dump", "20130114", "11241665", time.Date(2013, 1, 14, 11, 24, 16, 650_000_000, time.UTC), false},
		{"junk from a save tool", "   \x00\x00\x00\x00\x00", "\x00\x00\x00\x00\x00\x00\x00\x00", time.Time{}, true},
		{"blank", "        ", "        ", time.Time{}, true},
		{"month 13", "20131314", "11241665", time.Time{}, true},
		{"short", "2013", "1124", time.Time{}, true},
		{"leap day", "20240229", "00000000", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), false},
		{"february 29 of a common year", "20230229", "00000000", time.Time{}, true},
		{"february 30", "20240230", "00000000", time.Time{}, true},
		{"april 31", "20240431", "12000000", time.Time{}, true},
		{"last hundredth of the year", "20241231", "23595999", time.Date(2024, 12, 31, 23, 59, 59, 990_000_000, time.UTC), false},
		{"hour 24", "20240101", "24000000", time.Time{}, true},
		{"local-time separators", "2024-01-", "12:00:00", time.Time{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePutTime(tt.date, tt.tod)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !got.Equal(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFormatPutTimeRoundTrip(t *testing.T) {
	in := time.Date(2026, 11, 30, 3, 4, 5, 670_000_000, time.UTC)
	d, tm := FormatPutTime(in)
	if d != "20261130" || tm != "03040567" {
		t.Fatalf("got %q %q", d, tm)
	}
	out, err := ParsePutTime(d, tm)
	if err != nil || !out.Equal(in) {
		t.Fatalf("round trip: %v %v", out, err)
	}
}

// FuzzParsePutTime: whatever ParsePutTime accepts is exactly what a queue
// manager would write for that instant, so no impossible date slips through
// as a neighbouring real one.
func FuzzParsePutTime(f *testing.F) {
	f.Add("20130114", "11241665")
	f.Add("20240230", "00000000")
	f.Add("\x00\x00\x00\x00\x00\x00\x00\x00", "        ")
	f.Fuzz(func(t *testing.T, date, tod string) {
		got, err := ParsePutTime(date, tod)
		if err != nil {
			return
		}
		if d, h := FormatPutTime(got); d != date || h != tod {
			t.Fatalf("accepted %q %q as %v, which is written %q %q", date, tod, got, d, h)
		}
	})
}

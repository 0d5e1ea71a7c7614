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

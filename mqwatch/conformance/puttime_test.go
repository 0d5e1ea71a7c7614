package conformance

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
		{"queue manager GMT stamp", "20130114", "11241665", time.Date(2013, 1, 14, 11, 24, 16, 650_000_000, time.UTC), false},
		{"leap day", "20240229", "00000000", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), false},
		{"february 30 is not a date", "20240230", "00000000", time.Time{}, true},
		{"hour 24 rejected", "20240101", "24000000", time.Time{}, true},
		{"blank fields rejected", "        ", "        ", time.Time{}, true},
		{"local-time separators rejected", "2024-01-", "12:00:00", time.Time{}, true},
		{"short fields rejected", "2024011", "1200000", time.Time{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePutTime(tt.date, tt.tod)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v, wantErr %v", err, tt.wantErr)
			}
			if !got.Equal(tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func FuzzParsePutTime(f *testing.F) {
	f.Add("20130114", "11241665")
	f.Add("20240230", "00000000")
	f.Add("\x00\x00\x00\x00\x00\x00\x00\x00", "        ")
	f.Fuzz(func(t *testing.T, date, tod string) {
		got, err := parsePutTime(date, tod)
		if err != nil {
			return
		}
		// Whatever is accepted is exactly how a queue manager would write it.
		d, h := got.UTC().Format("20060102"), got.UTC().Format("150405")
		if d != date || h != tod[:6] {
			t.Fatalf("accepted %q %q as %v", date, tod, got)
		}
	})
}

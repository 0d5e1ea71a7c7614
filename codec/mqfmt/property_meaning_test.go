package mqfmt

import "testing"

func TestPropertyMeaningShowsJMSTimesAsDates(t *testing.T) {
	for _, tt := range []struct{ folder, name, dt, value, want string }{
		{"jms", "Tms", "i8", "1446139225436", "i8, 2015-10-29 17:20:25.436 GMT"},
		{"jms", "Tms", "", "1446139225436", "2015-10-29 17:20:25.436 GMT"},
		{"jms", "Exp", "i8", "0", "i8"}, // never expires
		{"jms", "Tms", "i8", "garbage", "i8"},
		{"jms", "Tms", "i8", "99999999999999999", "i8"},
		{"usr", "Tms", "i8", "1446139225436", "i8"},
		{"jms", "Dlv", "i4", "2", "i4"},
	} {
		if got := PropertyMeaning(tt.folder, tt.name, tt.dt, tt.value); got != tt.want {
			t.Errorf("PropertyMeaning(%s.%s = %s) = %q, want %q", tt.folder, tt.name, tt.value, got, tt.want)
		}
	}
}

package words

import "testing"

func TestCounts(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Count(1, "message"), "1 message"},
		{Count(0, "message"), "0 messages"},
		{Count(1244, "message"), "1,244 messages"},
		{Count(2, "other rule"), "2 other rules"},
		{CountPlain(1244, "message"), "1244 messages"},
		{CountPlain(1, "pass"), "1 pass"},
		{CountPlain(3, "pass"), "3 passes"},
		{CountPlain(-1, "error"), "-1 errors"},
		{Noun(1, "group"), "group"},
		{Noun(7, "group"), "groups"},
		{Commas(0), "0"},
		{Commas(999), "999"},
		{Commas(1000), "1,000"},
		{Commas(-1234567), "-1,234,567"},
		{Commas(123456789012), "123,456,789,012"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

package mqfmt

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParseQLoadDisplayOptions(t *testing.T) {
	tests := []struct {
		name, d string
		want    QLoadWriterOptions
		err     string
	}{
		{"empty_is_hex_default", "", QLoadWriterOptions{}, ""},
		{"aN_is_hex_with_ascii_and_no_mqmd", "aN", QLoadWriterOptions{ASCIIColumn: true, NoMQMD: true}, ""},
		{"A_is_invariant_strings", "A", QLoadWriterOptions{Form: QLoadInvariant}, ""},
		{"p_is_printable_strings", "p", QLoadWriterOptions{Form: QLoadPrintable}, ""},
		{"t_is_text_lines", "t", QLoadWriterOptions{Form: QLoadText}, ""},
		{"c_H_i_flags", "cHi", QLoadWriterOptions{CharContext: true, NoHeader: true, Index: true}, ""},
		{"w_takes_the_digits_after_it", "tw40a", QLoadWriterOptions{Form: QLoadText, Width: 40, ASCIIColumn: true}, ""},
		{"w_without_digits_means_default", "wa", QLoadWriterOptions{ASCIIColumn: true}, ""},
		{"two_forms_are_refused", "Ap", QLoadWriterOptions{}, "only one of A, p and t"},
		{"summary_is_not_a_file_format", "s", QLoadWriterOptions{}, "writes a report"},
		{"age_is_not_a_file_format", "T", QLoadWriterOptions{}, "writes a report"},
		{"unknown_letter", "aZ", QLoadWriterOptions{}, "unknown display option 'Z'"},
		{"width_overflow", "w99999999999999999999", QLoadWriterOptions{}, "w99999999999999999999"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseQLoadDisplayOptions(tc.d)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil || fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tc.want) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// TestQLoadWriterWidth checks dmpmqmsg's width rules: 0 means 25, below 10
// means 10, and widths beyond QLoadMaxWidth are refused.
func TestQLoadWriterWidth(t *testing.T) {
	data := bytes.Repeat([]byte{0xAB}, 100)
	tests := []struct {
		name      string
		width     int
		firstLine int // bytes on the first X line
	}{
		{"zero_means_25", 0, 25}, {"negative_means_25", -3, 25}, {"below_10_means_10", 4, 10},
		{"exact", 33, 33}, {"maximum", QLoadMaxWidth, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := writeAll(t, []QLoadMessage{{Data: data}}, QLoadWriterOptions{Width: tc.width, NoHeader: true})
			first := strings.SplitN(string(text), "\n", 3)[1]
			if got := (len(first) - 2) / 2; got != tc.firstLine {
				t.Errorf("first X line holds %d bytes, want %d", got, tc.firstLine)
			}
		})
	}
	if _, err := NewQLoadWriter(&bytes.Buffer{}, QLoadWriterOptions{Width: QLoadMaxWidth + 1}); err == nil {
		t.Error("width over the maximum accepted")
	}
	if _, err := NewQLoadWriter(&bytes.Buffer{}, QLoadWriterOptions{Form: QLoadText + 1}); err == nil {
		t.Error("unknown data form accepted")
	}
}

func TestQLoadWriterHeader(t *testing.T) {
	long := strings.Repeat("Q", 60)
	tests := []struct {
		name string
		opts QLoadWriterOptions
		want string
	}{
		{"ctime_pads_the_day_with_a_blank", QLoadWriterOptions{},
			"* DMPMQMSG Version:9.4.0.0 Created:Wed Mar  4 05:06:07 2026\n\n"},
		{"names_cut_to_48_as_dmpmqmsg_does", QLoadWriterOptions{QMgr: "QM1", Queue: long},
			"* DMPMQMSG Version:9.4.0.0 Created:Wed Mar  4 05:06:07 2026\n* Qmgr  = QM1\n* Queue = " + long[:48] + "\n\n"},
		{"clock_in_its_own_zone", QLoadWriterOptions{Now: func() time.Time {
			return time.Date(2025, 12, 25, 23, 59, 1, 0, time.FixedZone("X", 3600))
		}}, "* DMPMQMSG Version:9.4.0.0 Created:Thu Dec 25 23:59:01 2025\n\n"},
		{"dH_writes_nothing", QLoadWriterOptions{NoHeader: true}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(writeAll(t, nil, tc.opts)); got != tc.want {
				t.Errorf("header\n got %q\nwant %q", got, tc.want)
			}
		})
	}
	if _, err := NewQLoadWriter(&bytes.Buffer{}, QLoadWriterOptions{Queue: "A\nB"}); err == nil {
		t.Error("queue name with a line break accepted")
	}
}

// TestQLoadWriterFields covers MQMD fields the text format cannot carry as they
// are: refused (line breaks), written in hex instead (-dc with NULs or line
// breaks), or lossy exactly as dmpmqmsg is (NULs in other character fields).
func TestQLoadWriterFields(t *testing.T) {
	md := func(f func(*MQMD)) MQMD { m := mdStr(); f(&m); return m }
	tests := []struct {
		name     string
		md       MQMD
		opts     QLoadWriterOptions
		line     string // a line the output must contain
		readBack func(*MQMD)
	}{
		{"nul_in_put_date_reads_back_as_blanks_as_in_dmpmqmsg",
			md(func(m *MQMD) { m.PutDate = "   \x00\x00\x00\x00\x00" }), QLoadWriterOptions{}, "A PTD    \n",
			func(m *MQMD) { m.PutDate = "        " }},
		{"dc_writes_identity_data_as_characters",
			md(func(m *MQMD) { m.ApplIdentityData = padField("id=7", 32) }), QLoadWriterOptions{CharContext: true},
			"A AID id=7" + strings.Repeat(" ", 28) + "\n", nil},
		{"dc_falls_back_to_hex_for_a_line_feed",
			md(func(m *MQMD) { m.ApplOriginData = "a\nb " }), QLoadWriterOptions{CharContext: true}, "A AOX 610A6220\n", nil},
		{"dc_falls_back_to_hex_for_a_nul",
			md(func(m *MQMD) { m.ApplOriginData = "ab\x00\x00" }), QLoadWriterOptions{CharContext: true}, "A AOX 61620000\n", nil},
		{"carriage_return_inside_a_field_is_kept",
			md(func(m *MQMD) { m.UserIdentifier = "a\rb         " }), QLoadWriterOptions{}, "A USR a\rb         \n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := writeAll(t, []QLoadMessage{{MD: tc.md, HasMQMD: true, Data: []byte("x")}}, tc.opts)
			if !bytes.Contains(text, []byte(tc.line)) {
				t.Fatalf("output lacks %q:\n%s", tc.line, text)
			}
			msgs, err := ReadQLoad(bytes.NewReader(text))
			if err != nil || len(msgs) != 1 {
				t.Fatalf("read back: %d messages, %v", len(msgs), err)
			}
			want := tc.md
			if tc.readBack != nil {
				tc.readBack(&want)
			}
			if msgs[0].MD != want {
				t.Errorf("read back\n got %+v\nwant %+v", msgs[0].MD, want)
			}
		})
	}
}

// TestQLoadWriterRefusesUnwritableField checks that a field with a line feed, or
// ending in a carriage return, is refused before anything of the message is
// written, and that the writer goes on with the next message.
func TestQLoadWriterRefusesUnwritableField(t *testing.T) {
	for _, bad := range []func(*MQMD){
		func(m *MQMD) { m.ReplyToQ = "Q\nA VER 9" },
		func(m *MQMD) { m.PutApplName = "app\r\x00" },
	} {
		var buf bytes.Buffer
		w, _ := NewQLoadWriter(&buf, QLoadWriterOptions{Now: testClock, Index: true})
		md := mdStr()
		bad(&md)
		if err := w.Write(QLoadMessage{MD: md, HasMQMD: true, Data: []byte("bad")}); !errors.Is(err, ErrQLoadUnwritable) {
			t.Fatalf("error %v, want ErrQLoadUnwritable", err)
		}
		if err := w.Write(QLoadMessage{MD: mdStr(), HasMQMD: true, Data: []byte("good")}); err != nil {
			t.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		msgs, err := ReadQLoad(strings.NewReader(text))
		if err != nil || len(msgs) != 1 || string(msgs[0].Data) != "good" || !strings.Contains(text, "* Index 1\n") {
			t.Fatalf("file after a refused message: %d messages, %v\n%s", len(msgs), err, text)
		}
	}
}

// TestQLoadWriterTextForm pins the -dt lines for the cases where dmpmqmsg's own
// -dt output would not read back exactly.
func TestQLoadWriterTextForm(t *testing.T) {
	long := strings.Repeat("y", qloadMaxTextLine+1)
	tests := []struct {
		name, data, want string
	}{
		{"lines_ended_by_LF_are_T_lines", "a\n\nb\n", "T a\nT \nT b\n"},
		{"text_without_final_LF_is_an_S_line", "a\nb", "T a\nS \"b\"\n"},
		{"CRLF_goes_to_hex", "a\r\nb\n", "S \"a\"\nX 0D0A\nT b\n"},
		{"LF_after_binary_stays_in_the_X_line", "\x01\nz\n", "X 010A\nT z\n"},
		{"empty_data_is_an_empty_X_line", "", "X \n"},
		{"line_longer_than_a_T_line_is_S_lines_then_empty_T", long + "\n", "S \"" + strings.Repeat("y", 48) + "\"\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := writeAll(t, []QLoadMessage{{Data: []byte(tc.data)}}, QLoadWriterOptions{Form: QLoadText, NoHeader: true})
			body := strings.TrimSuffix(strings.TrimPrefix(string(text), "N\n"), "\n")
			if !strings.HasPrefix(body, tc.want) {
				t.Errorf("data lines\n got %q\nwant prefix %q", clip([]byte(body), 200), tc.want)
			}
			if msgs, err := readQLoadString(string(text), QLoadReaderOptions{Headerless: true}); err != nil || string(msgs[0].Data) != tc.data {
				t.Errorf("read back %v, err %v", len(msgs), err)
			}
		})
	}
}

// failWriter fails every write, to show write errors surface and stick.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestQLoadWriterReportsWriteErrors(t *testing.T) {
	w, err := NewQLoadWriter(failWriter{}, QLoadWriterOptions{Now: testClock})
	if err != nil {
		t.Fatal(err) // the header is buffered, not written yet
	}
	big := QLoadMessage{Data: bytes.Repeat([]byte{1}, 100<<10)}
	if err := w.Write(big); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Write: %v, want the disk error", err)
	}
	if err := w.Flush(); err == nil {
		t.Fatal("Flush after a failed write returned nil")
	}
}

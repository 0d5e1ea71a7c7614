package ibmmq

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseMQServer(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    MQServer
		wantErr string
	}{
		{"channel_tcp_host_port", "DEV.APP.SVRCONN/TCP/mq1.example.com(1414)",
			MQServer{"DEV.APP.SVRCONN", "TCP", "mq1.example.com(1414)", []Endpoint{{"mq1.example.com", 1414}}}, ""},
		{"transport_is_case_insensitive_channel_is_not", "app.svrconn/tcp/10.0.0.1(1515)",
			MQServer{"app.svrconn", "TCP", "10.0.0.1(1515)", []Endpoint{{"10.0.0.1", 1515}}}, ""},
		{"port_defaults_to_1414", "CH/TCP/mqhost", MQServer{"CH", "TCP", "mqhost", []Endpoint{{"mqhost", 1414}}}, ""},
		{"connection_name_list", "CH/TCP/a(1),b(2)",
			MQServer{"CH", "TCP", "a(1),b(2)", []Endpoint{{"a", 1}, {"b", 2}}}, ""},
		{"ipv6_written_bare", "CH/TCP/2001:db8::1(1414)",
			MQServer{"CH", "TCP", "2001:db8::1(1414)", []Endpoint{{"2001:db8::1", 1414}}}, ""},
		{"two_parts_only", "CH/TCP", MQServer{}, "want ChannelName/TransportType/ConnectionName"},
		{"empty_channel", "/TCP/host(1414)", MQServer{}, "empty channel name"},
		{"channel_longer_than_20", "ABCDEFGHIJKLMNOPQRSTU/TCP/h(1)", MQServer{}, "longer than 20"},
		{"channel_with_a_blank", "MY CHANNEL/TCP/h(1)", MQServer{}, "not allowed in an MQ name"},
		{"lu62_is_refused", "CH/LU62/h", MQServer{}, "only TCP"},
		{"slash_in_connection_name", "CH/TCP/h(1)/x", MQServer{}, "contains '/'"},
		{"port_out_of_range", "CH/TCP/h(70000)", MQServer{}, "1 to 65535"},
		{"port_with_a_sign", "CH/TCP/h(+1414)", MQServer{}, "1 to 65535"},
		{"unclosed_port", "CH/TCP/h(1414", MQServer{}, "host(port)"},
		{"empty_host", "CH/TCP/(1414)", MQServer{}, "empty host"},
		{"parenthesis_in_host_found_by_fuzzing", "0/tCp/)(1)", MQServer{}, "unbalanced parentheses"},
		{"empty_entry_in_list", "CH/TCP/a(1),,b(2)", MQServer{}, "empty host"},
		{"control_character", "CH/TCP/h\x1b[2J(1)", MQServer{}, "not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseMQServer(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want error containing %q, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestParseConnNameRejectsOverlongNames(t *testing.T) {
	if _, err := ParseConnName(strings.Repeat("h", 265)); err == nil || !strings.Contains(err.Error(), "264") {
		t.Fatalf("want a length error, got %v", err)
	}
	if _, err := ParseConnName(""); err == nil {
		t.Fatal("want an error for an empty connection name")
	}
}

func TestModeFollowsIBMPrecedence(t *testing.T) {
	tests := []struct {
		name string
		s    Settings
		want Mode
	}{
		{"nothing_set_is_local_bindings", Settings{}, ModeBindings},
		{"flags_win_over_everything", Settings{Channel: "C", ConnName: "h", MQServer: "X/TCP/h", CCDTURL: "file:///c"}, ModeFlags},
		{"MQSERVER_wins_over_a_CCDT", Settings{MQServer: "X/TCP/h", CCDTURL: "file:///c", ChlTab: "t"}, ModeMQServer},
		{"MQCCDTURL_wins_over_MQCHLLIB", Settings{CCDTURL: "file:///c", ChlLib: "/var/mqm"}, ModeCCDTURL},
		{"MQCHLLIB_alone", Settings{ChlLib: "/var/mqm"}, ModeChlTab},
		{"MQCHLTAB_alone", Settings{ChlTab: "AMQCLCHL.TAB"}, ModeChlTab},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Mode(); got != tt.want {
				t.Errorf("Mode() = %s, want %s", got, tt.want)
			}
		})
	}
}

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolveValidatesSettings(t *testing.T) {
	tests := []struct {
		name    string
		s       Settings
		wantErr string
	}{
		{"bindings_with_defaults", Settings{QMgr: "QM1"}, ""},
		{"channel_without_conn", Settings{Channel: "C"}, "both -channel and -conn"},
		{"conn_without_channel", Settings{ConnName: "h(1)"}, "both -channel and -conn"},
		{"bad_qmgr_name", Settings{QMgr: "QM 1"}, "queue manager name"},
		{"bad_MQSERVER", Settings{MQServer: "nonsense"}, "MQSERVER"},
		{"cipher_with_a_CCDT", Settings{CCDTURL: "file:///c", CipherSpec: "ANY_TLS12"}, "channel definition carries its own"},
		{"key_repository_with_bindings", Settings{KeyRepository: "/k/key"}, "needs a client connection"},
		{"bad_time_zone", Settings{TimeZone: "Mars/Olympus"}, "time zone"},
		{"password_without_user", Settings{Password: NewSecret("pw")}, "MQ_PASSWORD is set but MQ_USER is not"},
		{"user_without_password_or_terminal", Settings{User: "app"}, "no terminal"},
		{"client_over_tls", Settings{Channel: "C", ConnName: "h(1)", CipherSpec: "ANY_TLS12_OR_HIGHER", KeyRepository: "/k/key"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.s
			err := s.Resolve(nil)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if s.ReplyModel != DefaultReplyModel || s.CommandQueue != DefaultCommandQueue ||
					s.CommandWait != DefaultCommandWait || s.MaxMsgLength != DefaultChannelMaxMsgLength {
					t.Errorf("defaults not filled: %+v", s)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("want error containing %q, got %v", tt.wantErr, err)
			}
		})
	}
}

func TestResolvePromptsForAMissingPassword(t *testing.T) {
	tests := []struct {
		name    string
		prompt  PasswordPrompter
		want    bool
		wantErr string
	}{
		{"prompt_answers", func(u string) (string, error) { return "pw-for-" + u, nil }, true, ""},
		{"prompt_fails", func(string) (string, error) { return "", errors.New("no tty") }, false, "no tty"},
		{"empty_answer", func(string) (string, error) { return "", nil }, false, "empty password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := FromEnv(env(map[string]string{EnvUser: "app"}))
			err := s.Resolve(tt.prompt)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want %q, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil || s.Password.value() != "pw-for-app" {
				t.Fatalf("err %v, password set %v", err, s.Password.IsSet())
			}
		})
	}
	s := FromEnv(env(map[string]string{EnvUser: "app", EnvPassword: "from-env"}))
	if err := s.Resolve(func(string) (string, error) { t.Fatal("prompted although MQ_PASSWORD is set"); return "", nil }); err != nil {
		t.Fatal(err)
	}
}

func TestFromEnvReadsIBMAndPoisonwatchVariables(t *testing.T) {
	s := FromEnv(env(map[string]string{
		EnvMQServer: "C/TCP/h(1)", EnvCCDTURL: "file:///ccdt.json", EnvChlLib: "/lib", EnvChlTab: "T",
		EnvUser: "u", EnvPassword: "p", EnvQMgr: "QM1", EnvChannel: "CH", EnvConnName: "c(2)",
		EnvCipherSpec: "X", EnvKeyRepo: "/k", EnvCertLabel: "L", EnvTimeZone: "UTC",
		EnvReplyModel: "M", EnvCommandQueue: "Q",
	}))
	want := Settings{QMgr: "QM1", Channel: "CH", ConnName: "c(2)", CipherSpec: "X", KeyRepository: "/k",
		CertLabel: "L", MQServer: "C/TCP/h(1)", CCDTURL: "file:///ccdt.json", ChlLib: "/lib", ChlTab: "T",
		User: "u", Password: NewSecret("p"), ReplyModel: "M", CommandQueue: "Q", TimeZone: "UTC"}
	if s.Sources["mqserver"] != "environment MQSERVER" || s.Sources["channel"] != "environment "+EnvChannel {
		t.Errorf("sources %v", s.Sources)
	}
	s.Sources = nil
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %+v\nwant %+v", s, want)
	}
}

func TestRegisterFlagsHasNoCredentialFlag(t *testing.T) {
	var s Settings
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	s.RegisterFlags(fs)
	fs.VisitAll(func(f *flag.Flag) {
		// A file's name is no credential: --password-file reads the secret
		// from a file only its owner may read.
		if (strings.Contains(f.Name, "user") || strings.Contains(f.Name, "pass")) && !strings.HasSuffix(f.Name, "-file") {
			t.Errorf("flag -%s would put a credential on the command line", f.Name)
		}
	})
	if err := fs.Parse([]string{"-qmgr", "QM1", "-channel", "C", "-conn", "h(1)", "-mq-tz", "+02:00"}); err != nil {
		t.Fatal(err)
	}
	if s.QMgr != "QM1" || s.Channel != "C" || s.ConnName != "h(1)" || s.TimeZone != "+02:00" {
		t.Errorf("flags not bound: %+v", s)
	}
}

func TestSecretNeverPrints(t *testing.T) {
	const pw = "hunter2-s3cret"
	s := Settings{QMgr: "QM1", User: "app", Password: NewSecret(pw)}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("connect", "settings", s, "password", s.Password)
	js, _ := json.Marshal(s)
	outputs := map[string]string{
		"String": s.String(), "%v": fmt.Sprintf("%v", s), "%+v": fmt.Sprintf("%+v", s), "%#v": fmt.Sprintf("%#v", s),
		"%d": fmt.Sprintf("%d", s.Password), "%x": fmt.Sprintf("%x", s.Password), "%q": fmt.Sprintf("%q", s.Password),
		"json": string(js), "slog": logged.String(),
	}
	for how, out := range outputs {
		if strings.Contains(out, pw) || strings.Contains(out, fmt.Sprintf("%x", pw)) {
			t.Errorf("%s leaks the password: %s", how, out)
		}
	}
	if !strings.Contains(s.String(), "[redacted]") {
		t.Errorf("String should say a password is set: %s", s.String())
	}
}

func TestParseLocation(t *testing.T) {
	tests := []struct {
		in     string
		offset int // seconds east of UTC on 2026-01-15
		bad    bool
	}{
		{"UTC", 0, false}, {"+02:00", 7200, false}, {"-0530", -19800, false}, {"+2", 7200, false},
		{"+1400", 50400, false}, {"+15", 0, true}, {"+02:60", 0, true}, {"+123", 0, true}, {"Nowhere/Never", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			loc, err := parseLocation(tt.in)
			if tt.bad {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, off := time.Date(2026, 1, 15, 12, 0, 0, 0, loc).Zone(); off != tt.offset {
				t.Errorf("offset %d, want %d", off, tt.offset)
			}
		})
	}
	if loc, _ := parseLocation(""); loc != time.Local {
		t.Error(`"" should be the local zone`)
	}
}

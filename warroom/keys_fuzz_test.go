package warroom

import (
	"net"
	"strings"
	"testing"
)

// FuzzParseAuthorizedKeys: any file gives keys or an error naming a line,
// never a panic, and a role is only ever operator or viewer, operator only
// when the line says role=operator.
func FuzzParseAuthorizedKeys(f *testing.F) {
	key := "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL+RkeDcflh1lX1dVfmBR6SpZDsjvsNbB22iB/C5zUks"
	for _, seed := range []string{
		key + " alice@laptop role=operator\n",
		key + " bob\n# comment\n\n",
		`no-pty,command="x" ` + key + " role=viewer",
		key + " role=root",
		"ssh-rsa AAAA\x00\xff role=operator",
		`from="10.0.0.0/8,!10.1.*",expiry-time="20270101Z" ` + key + " carol role=operator",
		`from="*.example.com" ` + key,
		`role=viewer ` + key + " x role=operator",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ks, err := ParseAuthorizedKeys(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "line ") {
				t.Fatalf("error without a line number: %v", err)
			}
			return
		}
		for _, k := range ks {
			_, _ = parseFrom(strings.Join(k.From, ","))
			fromAllows(k.From, &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 1})
			switch k.Role {
			case Viewer:
			case Operator:
				if !strings.Contains(string(data), "role=operator") {
					t.Fatalf("operator without role=operator in %q", data)
				}
			default:
				t.Fatalf("role %q", k.Role)
			}
		}
	})
}

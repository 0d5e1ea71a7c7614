package mqfmt

// sanitizeShort renders a few raw bytes for an error message: printable ASCII as
// is, everything else as \xNN, so no error text can carry a control sequence.
func sanitizeShort(b []byte) string {
	out := make([]byte, 0, len(b)*2)
	const hex = "0123456789abcdef"
	for _, c := range b {
		if c >= 0x20 && c < 0x7f && c != '\\' {
			out = append(out, c)
			continue
		}
		out = append(out, '\\', 'x', hex[c>>4], hex[c&0xF])
	}
	return string(out)
}

package mqfmt

import (
	"errors"
	"fmt"
)

// ErrTruncated is wrapped by every DecodeError raised because the input ended
// early, so callers can tell a cut-off message (browsed with a bounded buffer)
// from a corrupt one.
var ErrTruncated = errors.New("truncated")

// DecodeError reports malformed MQ data together with the absolute byte offset
// where decoding failed, so an operator can find the bad byte in a hex dump.
type DecodeError struct {
	Struct string // "MQMD", "MQRFH2", "MQDLH", ...
	Offset int    // absolute offset in the buffer given to the decoder
	Msg    string
	Err    error // optional cause, e.g. ErrTruncated
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("%s at byte %d: %s", e.Struct, e.Offset, e.Msg)
}

func (e *DecodeError) Unwrap() error { return e.Err }

func decodeErr(strc string, off int, format string, args ...any) *DecodeError {
	return &DecodeError{Struct: strc, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func truncErr(strc string, off, need, have int) *DecodeError {
	return &DecodeError{Struct: strc, Offset: off, Err: ErrTruncated,
		Msg: fmt.Sprintf("truncated: needs %d bytes, %d remain", need, have)}
}

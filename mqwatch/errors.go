package mqwatch

import (
	"errors"
	"fmt"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// Error is a failed MQI call: the completion code and reason code, with the
// verb and object that failed. Check for it with errors.As, or use ReasonOf.
type Error struct {
	Verb   string // "MQPUT", "MQGET", "MQOPEN", ...
	Object string // queue or object name, "" when none
	CC     int32
	RC     mqfmt.Reason
}

func (e *Error) Error() string {
	if e.Object == "" {
		return fmt.Sprintf("%s: %s", e.Verb, e.RC.Describe())
	}
	return fmt.Sprintf("%s %s: %s", e.Verb, e.Object, e.RC.Describe())
}

// NewError returns a failed-call error (MQCC_FAILED).
func NewError(verb, object string, rc mqfmt.Reason) *Error {
	return &Error{Verb: verb, Object: object, CC: mqfmt.CCFailed, RC: rc}
}

// ReasonOf returns the reason code in err's chain, or 0 when err is nil or not
// an MQ error.
func ReasonOf(err error) mqfmt.Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.RC
	}
	return 0
}

// IsWarning reports whether err is an MQI call that completed with
// MQCC_WARNING: the call did its work (an MQPUT with a Priority above MAXPRTY
// put the message, 2049), and the reason says what to know about it.
func IsWarning(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.CC == mqfmt.CCWarning
}

// IsReason reports whether err carries reason code rc.
func IsReason(err error, rc mqfmt.Reason) bool {
	return err != nil && ReasonOf(err) == rc
}

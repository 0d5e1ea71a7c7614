package mqwatch

import (
	"errors"
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
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

// ObjectError is one object an inquiry over a generic name could not report
// on (deleted while the command ran, damaged, not authorised): the other
// objects were reported. Object is "" when the failure named none.
type ObjectError struct {
	Object string
	Err    error
}

// PartialError comes with the results of an inquiry (Conn.Queues,
// QueueStatus, Handles) when some objects failed: the results returned
// alongside are good, and complete for every object not listed. A caller
// that treats any error as failure loses nothing it had before; the watcher
// keeps the results and shows each failure on its queue.
type PartialError struct {
	Verb    string
	Pattern string
	Objects []ObjectError
}

func (e *PartialError) Error() string {
	if len(e.Objects) == 1 {
		return fmt.Sprintf("%s %s: 1 object not reported: %v", e.Verb, e.Pattern, e.Objects[0].Err)
	}
	return fmt.Sprintf("%s %s: %d objects not reported, first: %v", e.Verb, e.Pattern, len(e.Objects), e.Objects[0].Err)
}

// SplitPartial separates a PartialError from a real failure: it returns the
// per-object failures and nil when err is a PartialError, else nil and err.
func SplitPartial(err error) ([]ObjectError, error) {
	var pe *PartialError
	if errors.As(err, &pe) {
		return pe.Objects, nil
	}
	return nil, err
}

// ConnectionLost reports whether a reason code means the connection is gone
// or going: every later call on it would fail, so the backend stops calling
// MQ on it and the watcher reconnects at once. The backend and the watcher
// share this one list, so the first failing call is the one that reconnects.
func ConnectionLost(rc mqfmt.Reason) bool {
	switch rc {
	case mqfmt.RCConnectionBroken, // 2009
		mqfmt.RCHconnError,          // 2018
		mqfmt.RCQMgrNotAvailable,    // 2059
		mqfmt.RCQMgrQuiescing,       // 2161
		mqfmt.RCQMgrStopping,        // 2162
		mqfmt.RCConnectionQuiescing, // 2202
		mqfmt.RCConnectionStopping,  // 2203
		2537,                        // MQRC_CHANNEL_NOT_AVAILABLE
		2538,                        // MQRC_HOST_NOT_AVAILABLE
		2546,                        // MQRC_RECONNECT_QMID_MISMATCH
		2547,                        // MQRC_RECONNECT_INCOMPATIBLE
		2548:                        // MQRC_RECONNECT_FAILED
		return true
	}
	return false
}

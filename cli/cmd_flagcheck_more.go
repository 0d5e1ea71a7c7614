package cli

import (
	"errors"
	"fmt"
	"math"

	"github.com/poisonwatch/poisonwatch/actions/ops"
)

// checkBackend refuses a --backend that is neither kind, as a usage error.
func checkBackend(kind string) error {
	if kind != "embedded" && kind != "ibmmq" {
		return fmt.Errorf("--backend %q: want embedded or ibmmq", kind)
	}
	return nil
}

// checkRulesFlags refuses rules run's numbers out of range, as the action
// commands refuse theirs.
func checkRulesFlags(sub string, f *rulesFlags) error {
	errs := []error{checkBackend(f.backend.kind)}
	if sub == "run" {
		if f.batch < 1 || f.batch > ops.MaxBatch {
			errs = append(errs, fmt.Errorf("--batch %d: want 1 to %d messages per unit of work", f.batch, ops.MaxBatch))
		}
		if f.workers < 1 || f.workers > ops.MaxWorkers {
			errs = append(errs, fmt.Errorf("--workers %d: want 1 to %d", f.workers, ops.MaxWorkers))
		}
		if r := f.rate; math.IsNaN(r) || math.IsInf(r, 0) || r < 0 || (r > 0 && r < minRate) || r > maxRate {
			errs = append(errs, fmt.Errorf("--rate %g: want 0 (no limit) or %g to %d messages per second", r, minRate, maxRate))
		}
	}
	return errors.Join(errs...)
}

// checkDecodeFlags refuses an MQMD field no message can carry.
func checkDecodeFlags(o decodeOpts) error {
	switch {
	case o.ccsid < 0 || o.ccsid > math.MaxUint16:
		return fmt.Errorf("--ccsid %d: want 0 (UTF-8) or a CCSID from 1 to 65535", o.ccsid)
	case o.encoding < 0 || o.encoding > math.MaxInt32:
		return fmt.Errorf("--encoding %d: want 0 (detect) or an MQMD Encoding such as 273 or 546", o.encoding)
	}
	return nil
}

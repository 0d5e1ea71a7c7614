package conformance

import (
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// parsePutTime reads PutDate (YYYYMMDD) and PutTime (HHMMSSTH) strictly: both
// fields exactly as a queue manager writes them in GMT, naming a real date,
// so that a backend writing local time, a different layout or an impossible
// date is caught.
func parsePutTime(date, tod string) (time.Time, error) {
	t, err := mqfmt.ParsePutTime(date, tod)
	if err != nil {
		return time.Time{}, err
	}
	if d, h := mqfmt.FormatPutTime(t); d != date || h != tod {
		return time.Time{}, fmt.Errorf("PutDate/PutTime %s %s is not a calendar date and time", date, tod)
	}
	return t, nil
}

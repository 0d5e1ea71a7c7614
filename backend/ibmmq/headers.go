package ibmmq

import (
	"fmt"
	"strconv"
)

// headerLevel is the command level (MQCMDL_CURRENT_LEVEL, e.g. "934") of the
// IBM MQ headers this binary was compiled against, stamped by `make
// build-mq` (-X, from .ci/mq-headers); "" when it was built otherwise, or
// "0" when the headers did not say.
var headerLevel string

// tokenHeaderLevel is IBM MQ 9.3.4, whose headers bring MQCSP version 3 and
// its token fields. mq-golang compiles its token code only against them: a
// binary built with older headers connects without the token, silently.
const tokenHeaderLevel = 934

// tokenBuildError refuses a token in a binary whose headers cannot send it.
func tokenBuildError() error {
	if headerLevel == "" {
		return nil // not built by make build-mq: nothing is known
	}
	lv, err := strconv.Atoi(headerLevel)
	if err == nil && lv >= tokenHeaderLevel {
		return nil
	}
	built := "headers of an unknown IBM MQ version"
	if err == nil && lv > 0 {
		built = fmt.Sprintf("IBM MQ %d.%d.%d headers", lv/100, lv/10%10, lv%10)
	}
	return fmt.Errorf("ibmmq: --token-file: this poisonwatch-mq was built against %s, and tokens (MQCSP version 3) need IBM MQ 9.3.4 or later: "+
		"the token would not be sent. Rebuild with `make build-mq MQ_TOKENS=1` against a 9.3.4 or later client", built)
}

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// Every file a command reads comes through internal/safeload: a regular
// file only (a FIFO, device or directory is refused at once with "not a
// regular file", never waited on), and a file read whole is refused over
// its kind's limit with "larger than the N-byte limit" before it is read.
// Files read as a stream (--load, import --file, an audit log, a
// recording) are opened with safeload.Open and have no size limit.
const (
	maxMQSCFile  = 4 << 20 // an --mqsc script, as the scenario loader bounds its own
	maxQMgrsFile = 1 << 20 // a --qmgrs file
	// maxDecodeInput bounds what decode reads: a message is at most 100 MB
	// in IBM MQ, and a dmpmqmsg file of it about twice that.
	maxDecodeInput = 256 << 20
	// maxBodyFile bounds edit --body-file: a hex dump of IBM MQ's largest
	// message (100 MB) is about four times its size.
	maxBodyFile = 450 << 20
)

// readFile is the one bounded read of a whole file a command names.
func readFile(path string, limit int64) ([]byte, error) { return safeload.ReadFile(path, limit) }

// readQMgrsFile reads a --qmgrs file.
func readQMgrsFile(path string) ([]byte, error) { return readFile(path, maxQMgrsFile) }

// runMQSCFile runs an --mqsc script on qm.
func runMQSCFile(qm *embedded.QMgr, path string) (embedded.Report, error) {
	data, err := readFile(path, maxMQSCFile)
	if err != nil {
		return embedded.Report{}, err
	}
	rep, err := qm.RunMQSC(bytes.NewReader(data))
	if err != nil {
		return rep, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// readInput reads a file, or standard input for "-", up to limit bytes.
func readInput(name string, limit int64) ([]byte, error) {
	if name != "-" {
		return readFile(name, limit)
	}
	data, err := io.ReadAll(io.LimitReader(os.Stdin, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read standard input: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("standard input: larger than the %d-byte limit: %w", limit, safeload.ErrTooLarge)
	}
	return data, nil
}

package warroom

import (
	"github.com/poisonwatch/poisonwatch/internal/confine"
	"github.com/poisonwatch/poisonwatch/ui"
)

// Files is a session's access to the host's files, a capability of its
// own: the ui opens the files a session names (:rules, W) through it, and
// SessionOps resolves through it every file a request names (export,
// import, a discard's archive) before the engine sees the request.
type Files interface {
	ui.Files
	// Resolve is where the engine reads or creates path, or why not.
	Resolve(path string) (string, error)
}

var (
	_ Files = (*confine.Dir)(nil)
	_ Files = confine.Denied{}
)

// Why sessions get no files.
const (
	noFilesViewer = "a viewer reads and writes no files on the host: that takes a key with role=operator"
	noFilesServer = "this server gives no session its files"
)

// filesFor is the file capability of a session: operators reach the
// server's files directory (Config.Files) and nothing outside it; viewers
// reach nothing, whatever their masking.
func (s *Server) filesFor(who Identity) Files {
	switch {
	case s.cfg.Files == nil:
		return confine.Denied{Why: noFilesServer}
	case who.Role != Operator:
		return confine.Denied{Why: noFilesViewer}
	}
	return s.cfg.Files
}

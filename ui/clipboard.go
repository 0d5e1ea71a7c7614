package ui

import (
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
)

// NoClipboard is implemented by a terminal's writer that knows OSC 52 cannot
// reach a clipboard through it (an SSH session without a terminal, TERM=dumb):
// it says why, and y says so rather than "copied".
type NoClipboard interface{ NoClipboard() string }

// copyMsgID puts the whole MsgId (48 hex digits) on the operator's clipboard
// with OSC 52, which terminals honour over SSH too.
func copyMsgID(c common, id [24]byte) tea.Cmd {
	hexID := msgIDHex(id)
	return copyText(c, "MsgId "+hexID, hexID)
}

// copyText puts text on the clipboard with OSC 52 and says what was copied
// (flashMsg). It writes to this session's own terminal: the renderer's
// output, which under `serve` is the SSH session (never the server's
// stdout). It writes outside the renderer, so it is a command, not part of
// View. Whether the terminal honours OSC 52 cannot be asked; what can be
// known (no terminal, TERM=dumb) is said instead of "copied".
func copyText(c common, what, text string) tea.Cmd {
	out := termenv.DefaultOutput()
	if r := c.Opts().Renderer; r != nil {
		out = r.Output()
	}
	return func() tea.Msg {
		if why := noClipboard(out); why != "" {
			return flashMsg("cannot copy: " + why)
		}
		out.Copy(text)
		return flashMsg("copied " + what)
	}
}

func noClipboard(out *termenv.Output) string {
	if n, ok := out.Writer().(NoClipboard); ok {
		return n.NoClipboard()
	}
	if out.Writer() == os.Stdout && os.Getenv("TERM") == "dumb" {
		return "TERM=dumb takes no OSC 52"
	}
	return ""
}

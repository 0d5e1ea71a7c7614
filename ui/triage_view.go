package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// arrivalsTitle names the ARRIVALS column with the span its bars cover.
var arrivalsTitle = fmt.Sprintf("ARRIVALS /%dm", int(model.SparkBuckets*model.SparkBucket/time.Minute))

// title is the triage's first line: the queue, the grouping and where the
// cursor is; the keys' hint only when it fits whole (the footer and ?
// list them too), so the title itself is never cut.
func (t *triageScreen) title(c common, w int) string {
	title := fmt.Sprintf(" %s grouped by %s  %s", c.Styles().Title.Render(mqfmt.Sanitize(t.loc.Queue)), t.dim, position(t.grid))
	if hint := "  (o: grouping · enter: messages · space: mark · tab: all messages)"; ansi.StringWidth(title+hint) <= w {
		title += hint
	}
	return title
}

// explainHeight is how many lines the reason of the group under the cursor
// may take: wrapped rather than cut (at 80 columns a consumer's queue-full
// reason takes three), the same height whatever the group so the list does
// not move as the cursor does.
func explainHeight(w int) int {
	if w >= 160 {
		return 2
	}
	return 3
}

// explainLines are the reason of the group under the cursor, wrapped to
// explainHeight lines (the last cut with "…" only past that).
func (t *triageScreen) explainLines(c common, w int) string {
	n := explainHeight(w)
	rows := strings.Split(ansi.Wrap(mqfmt.Sanitize(t.explain()), max(w-2, 20), " "), "\n")
	if len(rows) > n {
		rows = rows[:n]
		rows[n-1] = ansi.Truncate(rows[n-1], max(w-3, 10), "") + "…"
	}
	for i, r := range rows {
		rows[i] = c.Styles().Info.Render(ansi.Truncate(" "+strings.TrimLeft(r, " "), w, "…"))
	}
	return fitHeight(strings.Join(rows, "\n"), n) // the rule line below stays where it is
}

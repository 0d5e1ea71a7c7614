package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// remoteCols picks the columns that fit: the instance says which exporter
// (two hosts may both run a QM1), the worst alert takes the rest when
// there is room, and at 150 the DEADQ's largest reason joins.
func remoteCols(w int) []Column {
	if w < 100 {
		return []Column{
			{Title: "QMGR", Width: 8}, {Title: "INSTANCE", Width: 8, Flex: true}, {Title: "STATE", Width: 13},
			{Title: "CRIT", Width: 4, Right: true}, {Title: "WARN", Width: 4, Right: true},
			{Title: "DEADQ", Width: 8, Right: true}, {Title: "DLQ/MIN", Width: 7, Right: true},
			{Title: "BOQ FILL", Width: 8}, {Title: "LOOP", Width: 4, Right: true},
		}
	}
	cols := []Column{
		{Title: "QMGR", Width: 12}, {Title: "INSTANCE", Width: 16}, {Title: "STATE", Width: 19},
		{Title: "CRIT", Width: 4, Right: true}, {Title: "WARN", Width: 4, Right: true}, {Title: "HELD", Width: 4, Right: true},
		{Title: "DEADQ", Width: 11, Right: true}, {Title: "DLQ/MIN", Width: 7, Right: true},
		{Title: "BOQ FILL", Width: 10}, {Title: "LOOP", Width: 4, Right: true},
	}
	if w >= 150 {
		cols = append(cols, Column{Title: "TOP DEADQ REASON", Width: 28})
	}
	return append(cols, Column{Title: "WORST ALERT", Width: 16, Flex: true})
}

func (f *remoteFleetScreen) cell(row, col int) Cell {
	r := &f.rows[row]
	st := f.st
	down := r.Link == model.RemoteDown
	switch f.grid.Cols[col].Title {
	case "QMGR":
		return Cell{Text: mqfmt.Sanitize(r.QMgr), Style: levelStyle(st, r.Level())}
	case "INSTANCE":
		return Cell{Text: mqfmt.Sanitize(r.Instance), Style: &st.Muted}
	case "STATE":
		return f.stateCell(r, f.grid.widths[col])
	case "CRIT":
		return countCell(st, r.Crit, 2)
	case "WARN":
		return countCell(st, r.Warn, 1)
	case "HELD":
		return countCell(st, r.Held, 0)
	case "DEADQ":
		if r.DeadQ == "" || down {
			return Cell{Text: "-", Style: &st.Muted}
		}
		fill := 0.0
		if r.DeadMax > 0 {
			fill = r.DeadDepth / r.DeadMax
		}
		return Cell{Text: compact(r.DeadDepth) + "/" + compact(r.DeadMax), Style: levelStyle(st, fillLevel(fill))}
	case "DLQ/MIN":
		if !r.DeadRateOK || r.DeadRate < 0.5 {
			return Cell{Text: rate(r.DeadRate, r.DeadRateOK)}
		}
		return Cell{Text: rate(r.DeadRate, r.DeadRateOK), Style: &st.Warning}
	case "BOQ FILL":
		if r.WorstBOQ == "" {
			return Cell{Text: "-", Style: &st.Muted}
		}
		w := max(f.grid.Cols[col].Width-5, 1)
		return Cell{Text: fmt.Sprintf("%s %3.0f%%", bar(r.WorstFill, w), 100*r.WorstFill), Style: levelStyle(st, fillLevel(r.WorstFill))}
	case "LOOP":
		if r.Looping == 0 {
			return Cell{Text: "·", Style: &st.Muted}
		}
		return Cell{Text: fmt.Sprint(r.Looping), Style: &st.Danger}
	case "TOP DEADQ REASON":
		if len(r.Reasons) == 0 {
			return Cell{Text: "-", Style: &st.Muted}
		}
		return Cell{Text: reasonText(r.Reasons[0]) + " " + compact(r.Reasons[0].Value)}
	case "WORST ALERT":
		top := r.Top()
		if top == nil {
			return Cell{Text: "no alerts", Style: &st.Muted}
		}
		return Cell{Text: mqfmt.Sanitize(strings.TrimSpace(top.Rule + " " + top.Queue)), Style: levelStyle(st, int(top.Severity))}
	}
	return Cell{}
}

// reasonText is a DEADQ reason as the triage names it: "2085
// UNKNOWN_OBJECT_NAME".
func reasonText(r model.RemoteReason) string {
	return mqfmt.Sanitize(strings.TrimSpace(r.Code + " " + trimRC(r.Name)))
}

// stateCell says how the queue manager reads, in words and symbols so it
// reads without colour: ● answering (the data's age), ◌ stale, ✖ not
// connected (the exporter cannot reach it) or down (Prometheus cannot
// reach the exporter, or its series stopped).
func (f *remoteFleetScreen) stateCell(r *model.RemoteRow, w int) Cell {
	st := f.st
	a := age(r.Age(f.now).Truncate(time.Second))
	switch r.Link {
	case model.RemoteConnecting:
		return Cell{Text: "connecting…", Style: &st.Muted}
	case model.RemoteStale:
		return Cell{Text: "◌ stale " + a, Style: &st.Warning}
	case model.RemoteNotConnected:
		text := "✖ not connected " + a
		if ansi.StringWidth(text) > w {
			text = "✖ no conn " + a
		}
		return Cell{Text: text, Style: &st.Danger}
	case model.RemoteDown:
		if r.LastGood.IsZero() {
			return Cell{Text: "✖ down", Style: &st.Danger}
		}
		return Cell{Text: "✖ down " + a, Style: &st.Danger}
	}
	return Cell{Text: "● " + a + " ago", Style: &st.OK}
}

func (f *remoteFleetScreen) view(c common, w, h int) string {
	st := c.Styles()
	title := "Fleet from " + mqfmt.Sanitize(c.Opts().Fleet.Source())
	if f.fleet != nil {
		count := fmt.Sprintf("%s queue managers", human(int64(len(f.rows))))
		if n := len(f.fleet.Rows); n != len(f.rows) {
			count = fmt.Sprintf("%s of %s queue managers", human(int64(len(f.rows))), human(int64(n)))
		}
		title += fmt.Sprintf(": %s, worst first %s", count, position(f.grid))
	}
	lines := []string{section(st, title, w, true)}
	for _, n := range f.notice() {
		lines = append(lines, ansi.Truncate(n, w, "…"))
	}
	grid := f.grid.View(st)
	if f.grid.Rows == 0 && f.fleet != nil && len(f.fleet.Rows) > 0 {
		grid = fitHeight(grid, 1) + "\n" + st.Muted.Render(" no queue manager matches")
	}
	detail := f.detail(c, w)
	lines = append(lines, fitHeight(grid, h-len(lines)-len(detail)))
	return strings.Join(append(lines, detail...), "\n")
}

// notice is the line above the table when the answer needs a word: not
// yet read, failed (the rows are the last answer's), empty, cut, or
// without its silences.
func (f *remoteFleetScreen) notice() []string {
	st := f.st
	if st == nil {
		return nil
	}
	fl := f.fleet
	switch {
	case fl == nil:
		return []string{st.Muted.Render(" asking the query API for the poisonwatch series…")}
	case fl.Err != nil:
		text := " ✖ " + mqfmt.Sanitize(fl.Err.Error())
		if !fl.At.IsZero() {
			text += fmt.Sprintf("; rows as of %s (%s ago)", fl.At.Format(time.TimeOnly), age(f.now.Sub(fl.At).Truncate(time.Second)))
		}
		return []string{st.Danger.Render(text)}
	case len(fl.Rows) == 0:
		return []string{st.Warning.Render(" no poisonwatch series within the last hour: is an exporter scraped? (docs/fleet.md has a scrape config)")}
	case fl.Dropped > 0:
		return []string{st.Warning.Render(fmt.Sprintf(" %s more queue managers not shown: the worst %s are", human(int64(fl.Dropped)), human(int64(len(fl.Rows)))))}
	case fl.SilenceErr != nil:
		return []string{st.Warning.Render(" silences unknown: " + mqfmt.Sanitize(fl.SilenceErr.Error()))}
	}
	return nil
}

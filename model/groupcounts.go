package model

// EachCount calls fn with the key and size of every group of dimension d, in
// no particular order. Unlike Groups it neither sorts nor rescans ages, so a
// reader that wants only sizes every poll (the Prometheus exporter) pays for
// the groups, never for the messages behind them.
func (gs *GroupSet) EachCount(d Dim, fn func(k GroupKey, count int)) {
	for k, g := range gs.groups[d] {
		fn(k, g.Count)
	}
}

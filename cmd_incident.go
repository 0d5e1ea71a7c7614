package main

import (
	"context"
	"fmt"
	"io"

	"github.com/poisonwatch/poisonwatch/internal/alertstore"
	"github.com/poisonwatch/poisonwatch/model"
)

// openAlerts gives the backend's queue managers their book of alert
// histories and acknowledgements, kept in the state directory; the store
// writes it until ctx ends, and stop waits for its last write.
func openAlerts(ctx context.Context, o tuiOpts, be *backend, stderr io.Writer) (stop func(), err error) {
	var names []string
	for _, q := range be.qmgrs {
		names = append(names, q.name)
	}
	book := model.NewAlertBook()
	st, err := alertstore.Open(alertstore.Path(exportDir(o.audit), names), book)
	if err != nil {
		return nil, err
	}
	be.alerts = book
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); st.Run(ctx, o.interval) }()
	return func() {
		cancel()
		<-done
		if err := st.Err(); err != nil {
			fmt.Fprintf(stderr, "poisonwatch: %v\n", err)
		}
	}, nil
}

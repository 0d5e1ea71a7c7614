package model

import "github.com/poisonwatch/poisonwatch/mqwatch"

func (q *QMgrState) route(queue string, s *mqwatch.Summary) []string { return nil }

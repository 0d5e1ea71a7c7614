package pcf

import "github.com/poisonwatch/poisonwatch/mqwatch"

// The inverse of the mappings in attrs.go: the port's values as PCF writes
// them, for the server side.

func boolValue(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func queueTypeValue(t mqwatch.QueueType) int32 {
	switch t {
	case mqwatch.QModel:
		return qtModel
	case mqwatch.QAlias:
		return qtAlias
	case mqwatch.QRemote:
		return qtRemote
	case mqwatch.QCluster:
		return qtCluster
	}
	return qtLocal
}

func monitoringValue(m mqwatch.Monitoring) int32 {
	switch m {
	case mqwatch.MonOff:
		return monOff
	case mqwatch.MonLow:
		return monLow
	case mqwatch.MonMedium:
		return monMedium
	case mqwatch.MonHigh:
		return monHigh
	}
	return monQMgr
}

func defTypeValue(d mqwatch.DefType) int32 {
	switch d {
	case mqwatch.PermanentDynamic:
		return qdtPermanentDynamic
	case mqwatch.TemporaryDynamic:
		return qdtTemporaryDynamic
	}
	return qdtPredefined
}

func platformValue(name string) int32 {
	for v := int64(1); v <= plAppliance; v++ {
		if platformName(v) == name {
			return int32(v)
		}
	}
	return plUnix
}

package pcf

// triggerTypes are TRIGTYPE's values as MQSC names them (MQTT_*).
var triggerTypes = []string{"NONE", "FIRST", "EVERY", "DEPTH"}

// TriggerTypeName is the MQSC word of an MQTT_* value; "" for another.
func TriggerTypeName(v int32) string {
	if v >= 0 && int(v) < len(triggerTypes) {
		return triggerTypes[v]
	}
	return ""
}

// triggerTypeValue is the MQTT_* value of TRIGTYPE's word (FIRST, IBM's
// default, for an empty one); -1 for an unknown word.
func triggerTypeValue(w string) int32 {
	if w == "" {
		return 1
	}
	for i, t := range triggerTypes {
		if t == w {
			return int32(i)
		}
	}
	return -1
}

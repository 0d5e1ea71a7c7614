package conformance

import (
	"fmt"
	"strings"
	"testing"
)

// TestPrintSetup prints SetupMQSC for an administrator to run with runmqsc:
//
//	go test ./backend/conformance -run TestPrintSetup -v
func TestPrintSetup(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("run with -v to print the MQSC script")
	}
	fmt.Print(SetupMQSC)
}

func TestSetupDefinesEveryObjectTheSuiteUses(t *testing.T) {
	names := append([]string{qGetInh, qAlias, qAliasBad, qAliasDefs, qRemote, qModel, qDurModel, qNDurModel, topicObject}, clearable...)
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			if !strings.Contains(SetupMQSC, "('"+n+"')") {
				t.Errorf("SetupMQSC does not define %s", n)
			}
		})
	}
	for _, u := range []string{UserApp, UserMover} {
		if !strings.Contains(SetupMQSC, "PRINCIPAL('"+u+"')") {
			t.Errorf("SetupMQSC grants nothing to %s", u)
		}
	}
	if strings.Contains(SetupMQSC, "PRINCIPAL('"+UserNone+"')") {
		t.Errorf("SetupMQSC must grant nothing to %s", UserNone)
	}
}

func TestGroupsHaveUniqueCaseNames(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range groups() {
		if len(g.cases) == 0 {
			t.Errorf("group %s has no cases", g.name)
		}
		for _, c := range g.cases {
			key := g.name + "/" + c.name
			if seen[key] {
				t.Errorf("case %s defined twice", key)
			}
			seen[key] = true
		}
	}
}

package ops

import (
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// putAllowed are the files outside the gate that may call the port's
// MQPUT, and why none of them is an operator's write.
var putAllowed = map[string]string{
	"actions/ops/gate.go":                           "the gate itself",
	"actions/consumer_exec.go":                      "the demo's consumers: applications the embedded queue manager runs, not the operator",
	"demo/producer.go":                              "the demo's producers",
	"demo/trace.go":                                 "the demo's put tracer wraps the producers' queue",
	"cli/cmd_actions_backend.go":                    "--load seeds an embedded queue manager the command builds, never a real one",
	"mqwatch/pcf/port.go":                           "the PCF transport's request to the command queue (the change gate's path)",
	"mqwatch/pcf/client.go":                         "the PCF transport's request to the command queue (the change gate's path)",
	"backend/ibmmq/admin.go":                        "the backend's own command-queue transport",
	"backend/ibmmq/doctor.go":                       "the backend's own command-queue transport",
	"backend/ibmmq/queue.go":                        "the backend implements the port",
	"backend/embedded/cmdserver.go":                 "the embedded command server puts its replies",
	"backend/embedded/embeddedtest/embeddedtest.go": "tests' queue managers: the messages a test starts from, never an operator's",
	"backend/conformance/wait.go":                   "the port's conformance suite",
	"backend/conformance/fidelity.go":               "the port's conformance suite",
	"backend/conformance/dynamic.go":                "the port's conformance suite",
	"backend/conformance/env.go":                    "the port's conformance suite",
	"backend/conformance/authority.go":              "the port's conformance suite",
	"backend/conformance/limits.go":                 "the port's conformance suite",
	"backend/conformance/context.go":                "the port's conformance suite",
	"backend/conformance/uow.go":                    "the port's conformance suite",
}

// TestGateIsTheOnlyPut fails when a product file outside the target gate
// calls mqwatch.Queue's Put (or anything with its signature): every write
// path must be a caller of the gate, so every guard holds for it.
func TestGateIsTheOnlyPut(t *testing.T) {
	if testing.Short() {
		t.Skip("loads and type-checks the module")
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir: "../.."}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	for f := range putAllowed {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("putAllowed names %s, which is gone: take it off the list", f)
		}
	}
	var bad []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		for _, f := range p.Syntax {
			rel, _ := filepath.Rel(root, p.Fset.File(f.Pos()).Name())
			rel = filepath.ToSlash(rel)
			if strings.HasSuffix(rel, "_test.go") {
				continue
			}
			if _, ok := putAllowed[rel]; ok {
				continue
			}
			for _, pos := range portPuts(p.TypesInfo, f) {
				bad = append(bad, p.Fset.Position(pos).String())
			}
		}
	}
	slices.Sort(bad)
	for _, b := range bad {
		t.Errorf("%s calls the port's Put outside the target gate (actions/ops/gate.go): a write path must go through gatePut", b)
	}
}

// portPuts finds the calls in f of a method Put(ctx, *mqfmt.MQMD, []byte,
// mqwatch.PutOptions).
func portPuts(info *types.Info, f *ast.File) []token.Pos {
	var out []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Put" {
			return true
		}
		s, ok := info.Selections[sel]
		if !ok {
			return true
		}
		sig, ok := s.Obj().Type().(*types.Signature)
		if !ok || sig.Params().Len() != 4 {
			return true
		}
		if strings.HasSuffix(sig.Params().At(3).Type().String(), "mqwatch.PutOptions") &&
			strings.HasSuffix(sig.Params().At(1).Type().String(), "mqfmt.MQMD") {
			out = append(out, call.Pos())
		}
		return true
	})
	return out
}

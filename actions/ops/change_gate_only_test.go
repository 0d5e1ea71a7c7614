package ops_test

import (
	"go/ast"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestR10h_ChangeGateIsTheOnlyCaller: every object change goes through the
// change gate (actions/ops/change_gate.go). The test type-checks the module's
// non-test files and fails when any other file calls the PCF change submit
// ((*pcf.Client).Apply), or sends a change command (pcf.CmdChangeQ,
// CmdCopyQ, CmdCreateQ, CmdChangeQMgr) through (*pcf.Client).Run itself.
func TestR10h_ChangeGateIsTheOnlyCaller(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the module")
	}
	const pcfPath = "github.com/poisonwatch/poisonwatch/mqwatch/pcf"
	cfg := &packages.Config{Dir: "../..", Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	changeCmd := map[string]bool{"CmdChangeQ": true, "CmdCopyQ": true, "CmdCreateQ": true, "CmdChangeQMgr": true}
	isClientMethod := func(info *types.Info, e ast.Expr, name string) bool {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != name {
			return false
		}
		fn, ok := info.Uses[sel.Sel].(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != pcfPath {
			return false
		}
		recv := fn.Signature().Recv()
		return recv != nil && strings.HasSuffix(recv.Type().String(), "pcf.Client")
	}
	found := 0
	for _, p := range pkgs {
		if len(p.Errors) > 0 {
			t.Fatalf("%s: %v", p.PkgPath, p.Errors)
		}
		if p.PkgPath == pcfPath {
			continue // where the submit is defined
		}
		for _, f := range p.Syntax {
			file := p.Fset.File(f.Pos()).Name()
			gate := p.PkgPath == "github.com/poisonwatch/poisonwatch/actions/ops" && filepath.Base(file) == "change_gate.go"
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if isClientMethod(p.TypesInfo, call.Fun, "Apply") {
					found++
					if !gate {
						t.Errorf("%s: calls (*pcf.Client).Apply: go through the change gate (ops.ChangeGate)", p.Fset.Position(call.Pos()))
					}
				}
				if isClientMethod(p.TypesInfo, call.Fun, "Run") {
					for _, a := range call.Args {
						ast.Inspect(a, func(n ast.Node) bool {
							if id, ok := n.(*ast.Ident); ok && changeCmd[id.Name] {
								if c, ok := p.TypesInfo.Uses[id].(*types.Const); ok && c.Pkg().Path() == pcfPath {
									t.Errorf("%s: sends pcf.%s through Client.Run: go through the change gate", p.Fset.Position(id.Pos()), id.Name)
								}
							}
							return true
						})
					}
				}
				return true
			})
		}
	}
	if found != 1 {
		t.Errorf("the change gate calls (*pcf.Client).Apply %d times, want once", found)
	}
}

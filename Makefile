# poisonwatch — `make run` to watch the live demo, `make test` for every check.
GO        ?= go
PKGS      := ./...
FUZZTIME  ?= 10s
BIN       := bin/poisonwatch

.PHONY: all build run test fmt-check vet unit bench fuzz clean

all: build

build:
	$(GO) build -o $(BIN) .

run: build
	./$(BIN)

# test is what CI runs: formatting, vet, the race-enabled test suite.
test: fmt-check vet unit

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

unit:
	$(GO) test -race -count=1 $(PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# fuzz runs every fuzz target for FUZZTIME each (Go runs one target at a time).
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; done

clean:
	rm -rf bin
